/** Business limits (spec §5, §9) shared by forms and the server. */
export const LIMITS = {
  nameMin: 2,
  accountMax: 20,
  passwordMin: 6,
  passwordMax: 64,
  cycleNameMax: 8,
  importMaxBytes: 2 * 1024 * 1024,
  textMax: 100,
  longTextMax: 500,
  pageSizeMax: 100,
  badgeCap: 99,
  mobileWidth: 992,
} as const;

/** Timing constants (spec §9), in milliseconds. */
export const TIMING = {
  requestTimeout: 60_000,
  syncTimeout: 20_000,
  exportTimeout: 120_000,
  messagePoll: 20_000,
  transferRedirect: 1_000,
  profileClose: 500,
  notification: 2_000,
  errorToast: 5_000,
} as const;

/** Mainland and international mobile numbers: optional +, 6 to 15 digits (first digit non-zero). */
export const MOBILE_PATTERN = '^\\+?[1-9][0-9]{5,14}$';
/** Accounts: letters, digits, and . _ - @ */
export const ACCOUNT_PATTERN = '^[A-Za-z0-9._@-]+$';

export const RUN_MODES = ['normal', 'lan'] as const;
export type RunMode = (typeof RUN_MODES)[number];

export const SIZES = ['default', 'medium', 'small', 'mini'] as const;
export type Size = (typeof SIZES)[number];
export const DEFAULT_SIZE: Size = 'medium';

export const THEME_COLORS = ['#1890ff', '#409EFF', '#304156', '#212121', '#11a983', '#13c2c2', '#6959CD', '#f5222d'] as const;
