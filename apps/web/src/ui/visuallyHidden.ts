/** Styles that keep an element out of sight but read by screen readers (a live status line beside a progress bar). */
export const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
