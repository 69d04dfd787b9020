import { BigScreen } from '../components/BigScreen.tsx';

/** /maininfo: the big screen for the whole company (spec §2, issue #16). */
export default function MainInfoPage() {
  return <BigScreen />;
}
