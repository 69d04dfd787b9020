import { createStore, useStore } from './store.ts';

/**
 * Whether antd's whole stylesheet (antd/dist/antd.css, 76 KB compressed) is on the page. The signed-in shell brings
 * it (app/layout/antdStylesheet.ts); until then, on the public pages (the sign-in page draws without antd), antd
 * writes the styles of the components it draws in the browser (such a page needs a tenth of the sheet). Once it is
 * here, ui/AntdProviders.tsx turns antd's own style writing off (zeroRuntime).
 */
const loaded = createStore(false);

/** Called by the module that imports the stylesheet, once the stylesheet is in. */
export const antdStylesheetLoaded = () => loaded.set(true);

export const useAntdStylesheet = (): boolean => useStore(loaded);
