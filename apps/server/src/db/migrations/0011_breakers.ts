import type { Kysely } from 'kysely';
import type { Dialect } from '../database.ts';
import { emptyText, withId } from './helpers.ts';

/**
 * Smart circuit breakers over MQTT (issue #12, spec §3 Circuit breaker / Line / Timer): the breakers a company
 * registered (uuid unique across companies: its MQTT user name), their lines with live figures and limits,
 * timers kept on the breaker, alarms, and measurements (raw for 48 h, per-minute aggregates for the retention).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('breakers'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('alias', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('linenum', 'integer', (c) => c.notNull())
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen_at', 'text')
    /** scrypt of the breaker's MQTT password; never answered or logged */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    /** the same password in an external broker's format (Mosquitto $7$), '' when embedded */
    .addColumn('broker_hash', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('breakers_company').on('breakers').columns(['company_id', 'sort']).execute();

  await withId(db.schema.createTable('breaker_lines'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('breaker_id', 'integer', (c) => c.notNull().references('breakers.id').onDelete('cascade'))
    /** 1..linenum; the switch index on the wire is addr - 1 */
    .addColumn('addr', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('main', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('line_type', 'text', (c) => c.notNull().defaultTo('other'))
    /** max power, W */
    .addColumn('mxgg', 'integer', (c) => c.notNull())
    /** max current, units of 10 mA */
    .addColumn('mxgl', 'integer', (c) => c.notNull())
    .addColumn('limits_synced', 'integer', (c) => c.notNull().defaultTo(0))
    /** switch state: 1 on, 0 off */
    .addColumn('oc', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('power', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('current', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('voltage', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('energy_wh', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('temperature', 'real')
    .addColumn('leakage', 'real', (c) => c.notNull().defaultTo(0))
    /** the active alarm type, or null */
    .addColumn('alarm', 'text')
    /** idle | running | passed | failed */
    .addColumn('selfcheck', 'text', (c) => c.notNull().defaultTo('idle'))
    .addColumn('selfcheck_at', 'text')
    .addColumn('updated_at', 'text')
    .execute();
  await db.schema.createIndex('breaker_lines_addr').on('breaker_lines').columns(['breaker_id', 'addr']).unique().execute();

  await withId(db.schema.createTable('breaker_timers'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('breaker_id', 'integer', (c) => c.notNull().references('breakers.id').onDelete('cascade'))
    /** cyclic | single */
    .addColumn('type', 'text', (c) => c.notNull())
    /** JSON [line id] */
    .addColumn('line_ids', 'text', (c) => c.notNull())
    /** single: YYYY-MM-DD (company zone) */
    .addColumn('day', 'text')
    /** HH:mm */
    .addColumn('time', 'text', (c) => c.notNull())
    /** JSON [0..6], 0 Sunday */
    .addColumn('weekdays', 'text', (c) => c.notNull().defaultTo('[]'))
    /** on | off */
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    /** the breaker's schedule job id, once it holds the timer */
    .addColumn('job_id', 'integer')
    /** pending | synced | failed */
    .addColumn('sync', 'text', (c) => c.notNull().defaultTo('pending'))
    /** message key of the breaker's refusal */
    .addColumn('sync_error', 'text', (c) => c.notNull().defaultTo(emptyText))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('breaker_timers_breaker').on('breaker_timers').column('breaker_id').execute();

  await withId(db.schema.createTable('breaker_alarms'), dialect)
    .addColumn('company_id', 'integer', (c) => c.notNull())
    .addColumn('breaker_id', 'integer', (c) => c.notNull().references('breakers.id').onDelete('cascade'))
    .addColumn('line_id', 'integer')
    /** overcurrent | overpower | leakage | overtemp | offline */
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'real')
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('cleared_at', 'text')
    .execute();
  await db.schema.createIndex('breaker_alarms_company').on('breaker_alarms').columns(['company_id', 'at']).execute();
  await db.schema.createIndex('breaker_alarms_breaker').on('breaker_alarms').columns(['breaker_id', 'cleared_at']).execute();

  /** Raw readings, kept 48 h. */
  await db.schema
    .createTable('breaker_samples')
    .addColumn('line_id', 'integer', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('power', 'real', (c) => c.notNull())
    .addColumn('current', 'real', (c) => c.notNull())
    .addColumn('voltage', 'real', (c) => c.notNull())
    .addColumn('energy_wh', 'real', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('breaker_samples_line_at').on('breaker_samples').columns(['line_id', 'at']).execute();
  await db.schema.createIndex('breaker_samples_at').on('breaker_samples').column('at').execute();

  /** Per-minute aggregates ('YYYY-MM-DDTHH:mm', UTC), kept BREAKER_RETENTION_DAYS. */
  await db.schema
    .createTable('breaker_minutes')
    .addColumn('line_id', 'integer', (c) => c.notNull())
    .addColumn('minute', 'text', (c) => c.notNull())
    .addColumn('avg_w', 'real', (c) => c.notNull())
    .addColumn('max_w', 'real', (c) => c.notNull())
    /** meter reading at the end of the minute, Wh */
    .addColumn('energy_wh', 'real', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('breaker_minutes_pk', ['line_id', 'minute'])
    .execute();
  await db.schema.createIndex('breaker_minutes_minute').on('breaker_minutes').column('minute').execute();
}
