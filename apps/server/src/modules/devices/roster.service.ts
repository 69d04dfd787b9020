import type { Database, Executor } from '../../db/database.ts';
import type { RosterUser } from '../../gateways/terminal-events.ts';
import { chunks } from '../../lib/chunks.ts';
import type { FileStore } from '../../lib/files/store.ts';
import { nowIso } from '../../lib/time.ts';
import type { DeviceRow } from './devices.repository.ts';

/** A terminal's enrolment face larger than this is not kept (docs/zk-push-protocol.md §12.5: caps for a hostile terminal). */
export const ROSTER_FACE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * How a user the terminal holds stands against the company's people: `matched` the same number and name; `conflict`
 * the same number under another name; `byName` no one with the number but someone with the name; `new` neither.
 */
export type RosterMatch = 'matched' | 'conflict' | 'byName' | 'new';

/** Where a terminal's enrolment face is kept in the file store. */
const faceKey = (d: { company_id: number; id: number }, pin: string) => `terminal-faces/${d.company_id}/${d.id}/${pin}.jpg`;
const isJpeg = (b: Buffer) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
const norm = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * What each terminal holds (issue #30, taking over a working site): every user a roster read brings, with card,
 * validity and face, recorded per (device, PIN) apart from the company's people. Nothing here changes a person or a
 * terminal: the review (list) shows how each user stands against the people, and applying is the administrator's.
 */
export function rosterService(deps: { database: Database; files: FileStore }) {
  const { db } = deps.database;
  return {
    /** Records users as read; a user read again is overwritten (its face stays unless a new one comes). Idempotent. */
    async record(d: DeviceRow, users: RosterUser[]): Promise<void> {
      const at = nowIso();
      for (const part of chunks(users, 200))
        await db
          .insertInto('terminal_users')
          .values(
            part.map((u) => ({
              company_id: d.company_id,
              device_id: d.id,
              pin: u.pin,
              name: u.name,
              card: u.card,
              valid_from: u.validFrom,
              valid_to: u.validTo,
              admin: u.admin ? 1 : 0,
              kind: u.kind,
              read_at: at,
            })),
          )
          .onConflict((oc) =>
            oc.columns(['device_id', 'pin']).doUpdateSet((eb) => ({
              name: eb.ref('excluded.name'),
              card: eb.ref('excluded.card'),
              valid_from: eb.ref('excluded.valid_from'),
              valid_to: eb.ref('excluded.valid_to'),
              admin: eb.ref('excluded.admin'),
              kind: eb.ref('excluded.kind'),
              read_at: eb.ref('excluded.read_at'),
            })),
          )
          .execute();
    },

    /**
     * Keeps a user's enrolment face (a JPEG up to ROSTER_FACE_MAX_BYTES; anything else is skipped and answered false,
     * never guessed at). A face may come before its user's line: the row is made with the PIN alone until it does.
     */
    async face(d: DeviceRow, pin: string, jpeg: Buffer): Promise<boolean> {
      if (!isJpeg(jpeg) || jpeg.length > ROSTER_FACE_MAX_BYTES) return false;
      const key = faceKey(d, pin);
      await deps.files.put(key, jpeg, { contentType: 'image/jpeg' });
      await db
        .insertInto('terminal_users')
        .values({ company_id: d.company_id, device_id: d.id, pin, face: key, face_bytes: jpeg.length, read_at: nowIso() })
        .onConflict((oc) => oc.columns(['device_id', 'pin']).doUpdateSet({ face: key, face_bytes: jpeg.length }))
        .execute();
      return true;
    },

    /** One device's users as read, by PIN, each with how it stands against the company's people (RosterMatch). */
    async list(ex: Executor, companyId: number, deviceId: number, page: { offset: number; limit: number }) {
      const base = ex.selectFrom('terminal_users').where('company_id', '=', companyId).where('device_id', '=', deviceId);
      const [rows, total] = await Promise.all([
        base.selectAll().orderBy('pin').limit(page.limit).offset(page.offset).execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const byNumber = new Map<string, { id: number; name: string }>();
      const byName = new Map<string, { id: number; number: string }>();
      for (const part of chunks(rows.map((r) => r.pin)))
        for (const p of await ex
          .selectFrom('persons')
          .select(['id', 'number', 'name'])
          .where('company_id', '=', companyId)
          .where('number', 'in', part)
          .execute())
          byNumber.set(p.number, p);
      const names = [...new Set(rows.map((r) => r.name).filter(Boolean))];
      for (const part of chunks(names))
        for (const p of await ex.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).where('name', 'in', part).execute())
          byName.set(norm(p.name), p);
      const items = rows.map((r) => {
        const same = byNumber.get(r.pin);
        const named = r.name ? byName.get(norm(r.name)) : undefined;
        const match: RosterMatch = same ? (!r.name || norm(same.name) === norm(r.name) ? 'matched' : 'conflict') : named ? 'byName' : 'new';
        const person = same ?? (named ? { id: named.id, name: r.name } : undefined);
        return {
          ...r,
          match,
          person_id: person?.id ?? null,
          person_name: same?.name ?? (named ? r.name : ''),
          person_number: same ? r.pin : (named?.number ?? ''),
        };
      });
      return { items, total: Number(total.n) };
    },

    /** A user's kept face (this company's device), or undefined. */
    async faceFile(companyId: number, deviceId: number, pin: string) {
      const row = await db
        .selectFrom('terminal_users')
        .select('face')
        .where('company_id', '=', companyId)
        .where('device_id', '=', deviceId)
        .where('pin', '=', pin)
        .executeTakeFirst();
      return row?.face ? deps.files.get(row.face) : undefined;
    },
  };
}
export type RosterService = ReturnType<typeof rosterService>;
