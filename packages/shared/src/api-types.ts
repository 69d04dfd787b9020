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

export interface AccessPeriod {
  start: string;
  end: string;
}

/** Limited-time access (spec §3): a date range plus up to three daily periods. */
export interface PersonAccess {
  from: string | null;
  to: string | null;
  periods: AccessPeriod[];
}

export type PersonTag = 'admin' | 'manager' | 'left' | 'working';

/** A person as the API returns it: door and admin passwords are write-only (has_* tells whether one is set). */
export interface Person {
  id: number;
  number: string;
  name: string;
  phone: string;
  description: string;
  organizations: { id: number; name: string }[];
  pic: string;
  pic_url: string;
  rfid: string;
  idcard: string;
  address: string;
  workStatus: number;
  notify: number;
  access: PersonAccess;
  has_door_password: boolean;
  remote_open: number;
  is_admin: number;
  has_admin_password: boolean;
  incharges: { id: number; name: string }[];
  feature_rights: string[];
  user_pri: number;
  sync_status: number;
  tags: PersonTag[];
  created_at: string;
  updated_at: string;
}

export interface DepartmentNode {
  id: number;
  name: string;
  parent_id: number;
  sort: number;
  persons: number;
  total: number;
  incharges: { id: number; name: string }[];
  children: DepartmentNode[];
}

export interface ImportRowError {
  row: number;
  field: string;
  reason: string;
}

export interface ImportReport {
  total: number;
  created: number;
  updated: number;
  failed: number;
  /** strict mode with errors: nothing was written */
  written: boolean;
  errors: ImportRowError[];
}
