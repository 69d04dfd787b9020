import type { AdminRole, FunctionRight, ManagerStatus, Rights } from './rights.ts';
import type { RunMode } from './limits.ts';

/** GET /user/info (spec §3 session user). */
export interface SessionUser {
  id: number;
  name: string;
  username: string;
  mobile: string;
  avatar: string;
  introduction: string;
  roles: string[];
  company: number;
  companys: { id: number; name: string }[];
  alarm_ring: number;
  debug: number;
  is_init: number;
  rights: Rights;
}

/** GET /system/config (public): what the login page needs before anyone signs in. */
export interface PublicConfig {
  runMode: RunMode;
  registration: boolean;
  sms: boolean;
  needsSetup: boolean;
  title: string;
  version: string;
}

export interface CaptchaImage {
  captcha_id: string;
  /** data: URL of an SVG image */
  image: string;
}

export interface CompanyOptions {
  iocount: number;
  rfid: number;
  idcard: number;
  number: number;
  alarmRing: number;
  thirdParty: number;
  parking: { enabled: number; url: string; key: string };
  dualAuth: number;
  internalTesting: number;
}

export interface Company {
  id: number;
  name: string;
  address: string;
  phone: string;
  /** "lng,lat" or empty */
  location: string;
  /** Punches by the same person within this many seconds count once. */
  filter_seconds: number;
  options: CompanyOptions;
  created_at: string;
}

export interface Manager {
  id: number;
  name: string;
  username: string;
  mobile: string;
  status: ManagerStatus;
  role: AdminRole;
  is_init: number;
  rights: FunctionRight[];
  created_at: string;
  last_login_at: string | null;
}

export interface LogItem {
  id: number;
  module: string;
  action: string;
  description: string;
  data: unknown;
  admin_id: number | null;
  admin_name: string;
  ip: string;
  created_at: string;
}

export interface MessageItem {
  id: number;
  type: string;
  title: string;
  content: string;
  read: boolean;
  created_at: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}
