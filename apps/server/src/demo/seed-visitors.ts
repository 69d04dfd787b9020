import type { Modules } from '../app.ts';
import type { Database } from '../db/database.ts';
import { transaction } from '../db/transaction.ts';
import { clock, utcToLocal } from '../lib/time.ts';
import { devicesRepository } from '../modules/devices/devices.repository.ts';
import type { Tenant } from '../plugins/auth.ts';
import { captureJpegs } from './seed-people.ts';

/**
 * A visitor (#19): the R&D door lets visitors in, the demo administrator invited one for today, the visitor uploaded
 * a face through the link (the ledger puts them on that door only, valid within the window) and arrived an hour ago
 * (an accepted punch with its capture): the visitor log has an entry, the inviter a message.
 */
export async function seedVisitors(database: Database, modules: Pick<Modules, 'visitors' | 'punches'>, tenant: Tenant, doorSerial: string) {
  const { db } = database;
  const door = (await devicesRepository.findBySerial(db, doorSerial))!;
  await transaction(db, (trx) =>
    trx
      .updateTable('devices')
      .set({ options: JSON.stringify({ allowvisit: 1 }) })
      .where('id', '=', door.id)
      .execute(),
  );
  const now = clock.now();
  const invited = await modules.visitors.visitors.invite(
    { kind: 'admin', tenant },
    {
      name: '赵敏 Zhao Min',
      phone: '13912345678',
      company: '星河咨询 Galaxy Consulting',
      reason: '项目评审 Project review',
      starts_at: new Date(now - 2 * 3600_000).toISOString(),
      ends_at: new Date(now + 22 * 3600_000).toISOString(),
      device_ids: [door.id],
    },
    '',
  );
  const token = invited.link.split('/visit/')[1]!;
  const [face, capture] = (await captureJpegs(10)).slice(8);
  await modules.visitors.visitors.face(token, face!);
  const person = await db
    .selectFrom('visitors as v')
    .innerJoin('persons as p', 'p.id', 'v.person_id')
    .select('p.number')
    .where('v.id', '=', invited.visitor.id)
    .executeTakeFirstOrThrow();
  const time = utcToLocal(new Date(now - 3600_000).toISOString(), door.tz_offset);
  await modules.punches.punches.ingest(door, [
    { pin: person.number, time, status: 0, verify: 15, workcode: '0', mask: null, temperature: null, alcohol: null },
  ]);
  await modules.punches.punches.photo(door, person.number, time, capture!);
}
