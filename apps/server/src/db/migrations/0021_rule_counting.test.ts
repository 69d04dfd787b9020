import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Kysely } from 'kysely';
import { DIALECT, freshDatabase } from '../../../test/helpers.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../database.ts';
import { migrate } from '../migrate.ts';

const fresh = await freshDatabase();
const database = openDatabase(loadConfig({ DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent', ...(fresh.databaseUrl ? { DATABASE_URL: fresh.databaseUrl } : {}) }));
after(async () => {
  await database.close();
  await fresh.drop();
});

test(`0021 keeps existing rules counting as before and brings approved overtime into attendance (${DIALECT})`, async () => {
  // Rows as they were before 0021.
  const db = database.db as unknown as Kysely<any>;
  await migrate(db, database.dialect, '0020_person_joined_on');
  const now = '2026-11-01T00:00:00.000Z';
  const company = (await db.insertInto('companies').values({ name: 'Old Co', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id;
  await db.insertInto('attendance_rules').values({ company_id: company, name: 'Office', mode: 'fixed', created_at: now, updated_at: now }).execute();
  const person = (
    await db
      .insertInto('persons')
      .values({ company_id: company, number: '1', name: 'Old Hand', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
  const app = async (kind: string) =>
    (
      await db
        .insertInto('workflow_apps')
        .values({ company_id: company, name: '', icon: kind, kind, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const overtime = await app('overtime');
  const leave = await app('leave');
  const apply = async (appId: number, status: number, from: string | null, to: string | null, values: unknown, no: string) =>
    (
      await db
        .insertInto('workflow_applications')
        .values({
          company_id: company,
          app_id: appId,
          order_no: no,
          person_id: person,
          form_version: 1,
          process_version: 1,
          form_values: JSON.stringify(values),
          status,
          source: 'console',
          plan: '[]',
          period_from: from,
          period_to: to,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const done = await apply(overtime, 1, '2026-11-10T10:00:00.000Z', '2026-11-10T12:00:00.000Z', { reason: 'Release' }, 'OT1');
  const plain = await apply(overtime, 1, '2026-11-11T10:00:00.000Z', '2026-11-11T11:00:00.000Z', {}, 'OT2');
  await apply(overtime, 0, '2026-11-12T10:00:00.000Z', '2026-11-12T11:00:00.000Z', { reason: 'Pending' }, 'OT3');
  await apply(overtime, -1, '2026-11-13T10:00:00.000Z', '2026-11-13T11:00:00.000Z', { reason: 'Rejected' }, 'OT4');
  await apply(leave, 1, '2026-11-14T01:00:00.000Z', '2026-11-14T10:00:00.000Z', { reason: 'Leave' }, 'LV1');

  assert.deepEqual(await migrate(db, database.dialect, '0021_rule_counting'), ['0021_rule_counting']);
  const rule = await db.selectFrom('attendance_rules').select(['worked_by', 'count_off_day_punches', 'overtime_needs_approval']).executeTakeFirstOrThrow();
  assert.deepEqual({ ...rule }, { worked_by: 'firstLast', count_off_day_punches: 1, overtime_needs_approval: 0 });
  const rows = await db
    .selectFrom('attendance_absences')
    .select(['application_id', 'kind', 'from_at', 'to_at', 'reason', 'source'])
    .orderBy('application_id')
    .execute();
  assert.deepEqual(
    rows.map((r) => ({ ...r })),
    [
      { application_id: done, kind: 'overtime', from_at: '2026-11-10T10:00:00.000Z', to_at: '2026-11-10T12:00:00.000Z', reason: 'Release', source: 'approval' },
      { application_id: plain, kind: 'overtime', from_at: '2026-11-11T10:00:00.000Z', to_at: '2026-11-11T11:00:00.000Z', reason: 'OT2', source: 'approval' },
    ],
  );
});
