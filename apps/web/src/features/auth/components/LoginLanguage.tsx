import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@faceadmin/shared';
import { setLanguage, useLanguage } from '../../../lib/i18n.ts';
import { LANGUAGE_LABEL, LOCALE_FOLDER } from '../../../lib/languages.ts';

/**
 * The sign-in page's language switch (spec §1): a button that opens the four languages, each named in itself. The
 * console's header has antd's (ui/LanguageSelect.tsx); this one is plain, as the sign-in page comes without antd (#31).
 * Escape, a click elsewhere or the focus leaving closes it; the choice is saved and switches the page at once.
 */
export function LoginLanguage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div
      className="fa-lang"
      ref={box}
      // the keyboard leaving the switch (Tab past the list) closes it too
      onBlur={(e) => {
        if (!box.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className="fa-lang-button"
        aria-label={t('layout.language')}
        aria-expanded={open}
        aria-controls="fa-lang-list"
        data-testid="language-select"
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden>
          <circle cx="12" cy="12" r="9" />
          <path d="M3 12h18M12 3c2.5 2.6 3.6 5.6 3.6 9s-1.1 6.4-3.6 9c-2.5-2.6-3.6-5.6-3.6-9s1.1-6.4 3.6-9z" />
        </svg>
      </button>
      {open && (
        <ul id="fa-lang-list" className="fa-lang-list">
          {LANGUAGES.map((l) => (
            <li key={l}>
              <button
                type="button"
                lang={LOCALE_FOLDER[l]}
                data-lang={l}
                aria-current={l === language ? 'true' : undefined}
                onClick={() => {
                  setOpen(false);
                  button.current?.focus();
                  void setLanguage(l); // a failure is said by setLanguage and reported
                }}
              >
                {LANGUAGE_LABEL[l]}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
