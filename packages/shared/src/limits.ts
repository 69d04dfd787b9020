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
  /** Deeper pages than this are refused (a page number must stay a small integer on both databases). */
  pageMax: 100_000,
  badgeCap: 99,
  mobileWidth: 992,
  /** Person numbers become terminal PINs: ZKTeco PUSH takes up to 24 letters or digits. */
  personNumberMax: 24,
  personNameMax: 40,
  /** spec §3: limited-time access has up to three daily periods. */
  accessPeriodsMax: 3,
  photoMaxBytes: 5 * 1024 * 1024,
  importMaxRows: 20_000,
  /** plate numbers a person may have (sent to parking operators) */
  platesMax: 5,
} as const;

export const PERSON_NUMBER_PATTERN = '^[A-Za-z0-9]+$';
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
/** A dotted-quad IPv4 address, each part 0-255 (6.48.807.05 is no address). */
export const IPV4_PATTERN = `^(${OCTET}\\.){3}${OCTET}$`;
/** An IPv4 address as above, or an IPv6 literal (up to eight hex groups of at most four digits, `::` allowed). */
export const IP_PATTERN = `${IPV4_PATTERN}|^[0-9a-fA-F]{0,4}(:[0-9a-fA-F]{0,4}){2,7}$`;
export const CARD_PATTERN = '^[0-9]{1,20}$';
/** A vehicle plate: 2-12 of letters, digits, Chinese characters, '·' and '-' (京A·12345, ABC-123). */
export const PLATE_PATTERN = '^[0-9A-Za-z\\u4e00-\\u9fa5·-]{2,12}$';
export const DOOR_PASSWORD_PATTERN = '^[0-9]{4,8}$';
/** HH:mm, 00:00 to 23:59 */
export const TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** An IANA time zone name (Asia/Shanghai, America/Argentina/Buenos_Aires, UTC, Etc/GMT+8). */
export const TIME_ZONE_PATTERN = '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+){0,2}$';
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/** spec §3 user_pri: 0 attendance and access control, 1 access control only, 2 attendance only */
export const USER_PRI = [0, 1, 2] as const;
/** spec §4: 0 not synced, 1 synced, 2 failed */
export const SYNC_STATUS = { notSynced: 0, synced: 1, failed: 2 } as const;
export const WORK_STATUS = { left: 0, working: 1 } as const;

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
