import type { Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Dialect } from './database.ts';
import * as m0001 from './migrations/0001_foundation.ts';
import * as m0002 from './migrations/0002_people.ts';
import * as m0003 from './migrations/0003_devices.ts';
import * as m0004 from './migrations/0004_punch_keys.ts';
import * as m0005 from './migrations/0005_punch_alcohol.ts';
import * as m0006 from './migrations/0006_sign_in_throttle.ts';
import * as m0007 from './migrations/0007_company_time_zone.ts';
import * as m0008 from './migrations/0008_device_reads.ts';
import * as m0009 from './migrations/0009_attendance.ts';
import * as m0010 from './migrations/0010_health_records.ts';
import * as m0011 from './migrations/0011_breakers.ts';
import * as m0012 from './migrations/0012_workflow.ts';
import * as m0013 from './migrations/0013_person_left_at.ts';
import * as m0014 from './migrations/0014_sites.ts';
import * as m0015 from './migrations/0015_dashboard.ts';
import * as m0016 from './migrations/0016_dormitory.ts';
import * as m0017 from './migrations/0017_stranger_index.ts';
import * as m0018 from './migrations/0018_breaker_doubles.ts';
import * as m0019 from './migrations/0019_rule_alarm_temp.ts';
import * as m0020 from './migrations/0020_person_joined_on.ts';
import * as m0021 from './migrations/0021_rule_counting.ts';
import * as m0022 from './migrations/0022_rule_auto_shift.ts';
import * as m0023 from './migrations/0023_rule_history_periods.ts';
import * as m0024 from './migrations/0024_day_leave_minutes.ts';
import * as m0025 from './migrations/0025_leave_balances.ts';
import * as m0027 from './migrations/0027_dirty_seq.ts';
import * as m0028 from './migrations/0028_visitors.ts';
import * as m0029 from './migrations/0029_integrations.ts';
import * as m0030 from './migrations/0030_parking_options.ts';
import * as m0031 from './migrations/0031_person_admin.ts';
import * as m0032 from './migrations/0032_isapi.ts';
import * as m0033 from './migrations/0033_firmware.ts';
import * as m0036 from './migrations/0036_client_errors.ts';
import * as m0037 from './migrations/0037_files.ts';
import * as m0038 from './migrations/0038_instances.ts';
import * as m0039 from './migrations/0039_day_leave_days.ts';
import * as m0040 from './migrations/0040_request_quota.ts';
import * as m0041 from './migrations/0041_key_expiry_instant.ts';
import * as m0042 from './migrations/0042_changes.ts';
import * as m0043 from './migrations/0043_stranger_pins.ts';
import * as m0044 from './migrations/0044_terminal_users.ts';
import * as m0045 from './migrations/0045_legacy_imports.ts';
import * as m0046 from './migrations/0046_terminal_face_check.ts';
import * as m0047 from './migrations/0047_person_gender.ts';
import * as m0048 from './migrations/0048_roster_applies.ts';

/** A migration gets the dialect so the few dialect-specific column types stay in one helper. Forward only. */
export interface AppMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

const MIGRATIONS: Record<string, AppMigration> = {
  '0001_foundation': m0001,
  '0002_people': m0002,
  '0003_devices': m0003,
  '0004_punch_keys': m0004,
  '0005_punch_alcohol': m0005,
  '0006_sign_in_throttle': m0006,
  '0007_company_time_zone': m0007,
  '0008_device_reads': m0008,
  '0009_attendance': m0009,
  '0010_health_records': m0010,
  '0011_breakers': m0011,
  '0012_workflow': m0012,
  '0013_person_left_at': m0013,
  '0014_sites': m0014,
  '0015_dashboard': m0015,
  '0016_dormitory': m0016,
  '0017_stranger_index': m0017,
  '0018_breaker_doubles': m0018,
  '0019_rule_alarm_temp': m0019,
  '0020_person_joined_on': m0020,
  '0021_rule_counting': m0021,
  '0022_rule_auto_shift': m0022,
  '0023_rule_history_periods': m0023,
  '0024_day_leave_minutes': m0024,
  '0025_leave_balances': m0025,
  '0027_dirty_seq': m0027,
  '0028_visitors': m0028,
  '0029_integrations': m0029,
  '0030_parking_options': m0030,
  '0031_person_admin': m0031,
  '0032_isapi': m0032,
  '0033_firmware': m0033,
  '0036_client_errors': m0036,
  '0037_files': m0037,
  '0038_instances': m0038,
  '0039_day_leave_days': m0039,
  '0040_request_quota': m0040,
  '0041_key_expiry_instant': m0041,
  '0042_changes': m0042,
  '0043_stranger_pins': m0043,
  '0044_terminal_users': m0044,
  '0045_legacy_imports': m0045,
  '0046_terminal_face_check': m0046,
  '0047_person_gender': m0047,
  '0048_roster_applies': m0048,
};

/** Every migration this build knows (/readyz checks the database has run them all). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** Brings the schema to the newest migration, or to `target` (tests of a migration start below it). */
export async function migrate(db: Kysely<any>, dialect: Dialect, target?: string): Promise<string[]> {
  const migrations: Record<string, Migration> = {};
  for (const [name, m] of Object.entries(MIGRATIONS)) {
    migrations[name] = { up: (d) => m.up(d, dialect) };
  }
  // Features are built on branches side by side: a database that already ran a later-numbered migration still
  // takes an earlier-numbered one merged after it (each migration stands alone).
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = target ? await migrator.migrateTo(target) : await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
