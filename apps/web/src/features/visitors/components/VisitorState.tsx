import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Visitor } from '@faceadmin/shared';

const COLORS: Record<Visitor['state'], string> = { invited: 'blue', active: 'green', ended: 'default', cancelled: 'default' };

/** An invitation's state: invited (no face yet), active (on the doors), ended (the window passed), cancelled. */
export function VisitorStateTag({ v }: { v: Pick<Visitor, 'state' | 'has_face'> }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[v.state]} data-testid="visitor-state">
      {t(`visitor.states.${v.state}`)}
    </Tag>
  );
}
