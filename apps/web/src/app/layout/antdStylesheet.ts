// antd's component styles as one stylesheet, with the signed-in shell: the build makes it a CSS file that is loaded
// before this module runs (the shell's chunk waits for it), so the flag is set once the styles apply.
import './antd.css';
import { antdStylesheetLoaded } from '../../lib/antdStyles.ts';

antdStylesheetLoaded();
