// The sign-in form's icons, drawn here (antd's icons come with antd, which the sign-in page goes without: #31). 1em
// square, the text's colour; decorative (aria-hidden): each sits beside a label that says what it is.

const svg = { viewBox: '0 0 24 24', width: '1em', height: '1em', fill: 'none', stroke: 'currentColor', strokeWidth: 2, 'aria-hidden': true } as const;

export const UserIcon = () => (
  <svg {...svg} className="fa-input-icon">
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4.4 3.6-7 8-7s8 2.6 8 7" strokeLinecap="round" />
  </svg>
);

export const LockIcon = () => (
  <svg {...svg} className="fa-input-icon">
    <rect x="5" y="10" width="14" height="11" rx="2" />
    <path d="M8 10V7a4 4 0 0 1 8 0v3" />
  </svg>
);

export const CaptchaIcon = () => (
  <svg {...svg} className="fa-input-icon">
    <path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z" strokeLinejoin="round" />
    <path d="M8.5 12l2.5 2.5 4.5-5" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export const EyeIcon = ({ crossed }: { crossed: boolean }) => (
  <svg {...svg}>
    <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" strokeLinejoin="round" />
    <circle cx="12" cy="12" r="3" />
    {crossed && <path d="M4 4l16 16" strokeLinecap="round" />}
  </svg>
);

export const ErrorIcon = () => (
  <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden className="fa-login-alert-icon">
    <circle cx="12" cy="12" r="11" fill="currentColor" />
    <path d="M8 8l8 8M16 8l-8 8" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
  </svg>
);
