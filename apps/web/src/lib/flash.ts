/**
 * A success message that must survive a full page load: the company switch reloads the app at / (spec §2), which
 * would drop a toast shown before it. The i18n key waits in sessionStorage (this tab only) and is shown once the
 * console has started again, in the language current then.
 */
const KEY = 'faceadmin.flash';

export function flashAfterReload(i18nKey: string): void {
  try {
    sessionStorage.setItem(KEY, i18nKey);
  } catch {
    // storage disabled: the reload happens without the message
  }
}

/** The waiting message key, removed as it is read (shown once). */
export function takeFlash(): string | null {
  try {
    const key = sessionStorage.getItem(KEY);
    if (key !== null) sessionStorage.removeItem(KEY);
    return key;
  } catch {
    return null;
  }
}
