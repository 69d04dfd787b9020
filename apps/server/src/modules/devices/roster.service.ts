import {
  LIMITS,
  WORK_STATUS,
  type Language,
  type RosterApplied,
  type RosterApplyBody,
  type RosterApplyJob,
  type RosterRemoveBody,
  type RosterRemoved,
  type RosterSiteApplyBody,
  type RosterSiteQuery,
} from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import type { DeviceOp } from '../../gateways/driver.ts';
import type { RosterUser } from '../../gateways/terminal-events.ts';
import { t, type Params } from '../../i18n/i18n.ts';
import { chunks } from '../../lib/chunks.ts';
import { invalid, notFound } from '../../lib/errors.ts';
import type { FileStore } from '../../lib/files/store.ts';
import { nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { departmentsRepository } from '../departments/departments.repository.ts';
import { audit } from '../logs/logs.service.ts';
import { betterFace, type FaceCheck, type FaceFinding } from '../persons/face-check.ts';
import type { PeopleChangedHook } from '../persons/people-changed.ts';
import { normalizePhoto, type PhotoStore } from '../persons/photos.ts';
import { newPersonRow, personsRepository } from '../persons/persons.repository.ts';
import { devicesRepository, type DeviceRow } from './devices.repository.ts';
import { ledgerRepository } from './ledger.repository.ts';
import { rosterApplies } from './roster-applies.ts';
import { isJpeg } from '../../lib/jpeg.ts';
import { parseJson } from '../../lib/json.ts';

/** A terminal's enrolment face larger than this is not kept (docs/zk-push-protocol.md §12.5: caps for a hostile terminal). */
export const ROSTER_FACE_MAX_BYTES = 2 * 1024 * 1024;

/**
 * How a user the terminal holds stands against the company's people: `matched` the same number and name; `conflict`
 * the same number under another name; `byName` no one with the number but someone with the name; `new` neither.
 */
export type RosterMatch = 'matched' | 'conflict' | 'byName' | 'new';
type RosterSiteShow = NonNullable<RosterSiteQuery['show']>;

/** Where a terminal's enrolment face is kept in the file store. */
const faceKey = (d: { company_id: number; id: number }, pin: string) => `terminal-faces/${d.company_id}/${d.id}/${pin}.jpg`;
const norm = (name: string) => name.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * What each terminal holds (issue #30, taking over a working site): every user a roster read brings, with card,
 * validity and face, recorded per (device, PIN) apart from the company's people. Nothing here changes a person or a
 * terminal: the review (list) shows how each user stands against the people, and applying is the administrator's.
 */
/** Rows applied in one transaction: a 3,000-user terminal is applied in batches, each whole or not at all. */
const APPLY_BATCH = 200;

export function rosterService(deps: {
  database: Database;
  files: FileStore;
  /** the people's side: their faces, the face check, and the hook every writer of people calls */
  persons: { photos: PhotoStore; faceCheck: FaceCheck; peopleChanged: PeopleChangedHook };
  /** a one-off command for a terminal, in the caller's transaction (sync.service queue) */
  queue: (trx: Executor, device: DeviceRow, op: DeviceOp) => Promise<number>;
  log?: FastifyBaseLogger;
}) {
  const { db } = deps.database;
  // the reviews being applied, in the background (roster-applies.ts)
  const jobs = rosterApplies({ database: deps.database, ...(deps.log ? { log: deps.log } : {}) });

  /**
   * The face check of the faces terminals hold (the review shows a refused face and why before anything is written):
   * one face at a time in this process, after the terminal's upload is acknowledged (the detector takes a core for
   * about 0.15 s a face). A face read again is checked again; one left unchecked (a restart) is queued when a review
   * lists it.
   */
  const queued = new Set<string>();
  // uploaded again while queued or being checked: checked once more afterwards (the verdict written may be the old face's)
  const again = new Set<string>();
  // the detector down: not asked again for a minute, however often a review lists the face
  const resting = new Map<string, number>();
  let examining: Promise<void> = Promise.resolve();
  let closed = false;
  function examineLater(deviceId: number, pin: string, key: string, fresh = false) {
    const id = `${deviceId}:${pin}`;
    if (closed) return;
    if (queued.has(id)) {
      if (fresh) again.add(id);
      return;
    }
    if (!fresh && (resting.get(id) ?? 0) > Date.now()) return;
    queued.add(id);
    examining = examining
      .then(async () => {
        if (!closed && !(await examine(deviceId, pin, key))) resting.set(id, Date.now() + 60_000);
      })
      .catch((e: unknown) => deps.log?.warn({ err: e, device: deviceId, pin }, 'a terminal face could not be checked'))
      .finally(() => {
        queued.delete(id);
        if (again.delete(id)) examineLater(deviceId, pin, key, true);
      });
  }
  /** Checks one face and writes the verdict; false when it could not (the detector down: left unchecked). */
  async function examine(deviceId: number, pin: string, key: string): Promise<boolean> {
    const file = await deps.files.get(key);
    // the row names a file that is gone: nothing to take from it
    if (!file) {
      await db
        .updateTable('terminal_users')
        .set({ face_check: JSON.stringify({ key: 'roster.noFace' } satisfies FaceVerdict) })
        .where('device_id', '=', deviceId)
        .where('pin', '=', pin)
        .where('face', '=', key)
        .execute();
      return true;
    }
    const parts: Buffer[] = [];
    for await (const c of file.stream) parts.push(c as Buffer);
    const raw = Buffer.concat(parts);
    let verdict: FaceVerdict;
    try {
      const finding = await deps.persons.faceCheck(await normalizePhoto(raw));
      verdict = { ok: true, bytes: raw.length, ...(finding?.box ? { width: finding.box.width, sharpness: Math.round(finding.sharpness ?? 0) } : {}) };
    } catch (e) {
      const err = e as { key?: string; params?: Params };
      // the detector down: left unchecked, to be checked when a review lists it again
      if (err.key === 'errors.faceCheckDown') return false;
      verdict = { key: err.key ?? 'errors.photoCorrupt', params: err.params ?? {}, bytes: raw.length };
    }
    await db
      .updateTable('terminal_users')
      .set({ face_check: JSON.stringify(verdict) })
      .where('device_id', '=', deviceId)
      .where('pin', '=', pin)
      .where('face', '=', key)
      .execute();
    return true;
  }
  /** Rows whose face is not checked yet are queued (a face read before a restart, say). */
  const examineUnchecked = (rows: { device_id: number; pin: string; face: string; face_check: string }[]) => {
    for (const r of rows) if (r.face && !r.face_check) examineLater(r.device_id, r.pin, r.face);
  };

  /**
   * The terminal's face for a person: stored as a person's photo with its measures (none when the check is off), or why
   * not. The verdict the face check stored for it (terminal_users.face_check) is taken as it is: a face is checked once.
   */
  async function faceFor(companyId: number, key: string, check: string, lang: Language): Promise<{ pic: string; finding?: FaceFinding } | { reason: string }> {
    if (!key) return { reason: t(lang, 'roster.noFace') };
    const file = await deps.files.get(key);
    if (!file) return { reason: t(lang, 'roster.noFace') };
    const parts: Buffer[] = [];
    for await (const c of file.stream) parts.push(c as Buffer);
    const raw = Buffer.concat(parts);
    // the verdict of this very file (a face read again since is checked again: same key, other bytes)
    const stored = verdictOf(key, check);
    const verdict = stored && stored !== 'unchecked' && stored.bytes === raw.length ? stored : undefined;
    if (verdict && 'key' in verdict) return { reason: t(lang, verdict.key, verdict.params ?? {}) };
    try {
      const jpeg = await normalizePhoto(raw);
      const measured = verdict && 'ok' in verdict && verdict.width !== undefined;
      const finding = measured
        ? { faces: 1, box: { x: 0, y: 0, width: verdict.width!, height: verdict.width! }, sharpness: verdict.sharpness ?? 0 }
        : await deps.persons.faceCheck(jpeg);
      return { pic: await deps.persons.photos.save(companyId, jpeg), ...(finding ? { finding } : {}) };
    } catch (e) {
      const err = e as { key?: string; params?: Params };
      return { reason: t(lang, err.key ?? 'errors.photoCorrupt', err.params ?? {}) };
    }
  }

  /**
   * Several terminals, one person (issue #30): the terminal's face of a user linked to a person here replaces the
   * person's photo when the person has none, or when both pass the face check and the terminal's is better
   * (betterFace: larger, then sharper). Answers the face stored for it ('' none) and, when it is to be kept, why.
   */
  async function linkedFace(
    companyId: number,
    person: { photo: string },
    user: { face: string; face_check: string },
    lang: Language,
  ): Promise<{ stored: string; why?: string }> {
    if (!user.face) return { stored: '' };
    const face = await faceFor(companyId, user.face, user.face_check, lang);
    if (!('pic' in face)) return { stored: '' };
    if (!person.photo) return { stored: face.pic, why: t(lang, 'roster.photoNone') };
    // unmeasured (the check off): the person's photo stays
    if (!face.finding) return { stored: face.pic };
    const current = await deps.persons.photos.base64(companyId, person.photo);
    if (!current) return { stored: face.pic, why: t(lang, 'roster.photoNone') };
    let here: FaceFinding | undefined;
    try {
      here = await deps.persons.faceCheck(Buffer.from(current, 'base64'));
    } catch {
      // the photo kept here would be refused today: a face that passes is better
      return { stored: face.pic, why: t(lang, 'roster.photoRefusedHere') };
    }
    if (!betterFace(here, face.finding)) return { stored: face.pic };
    return {
      stored: face.pic,
      why: t(lang, 'roster.photoBetter', {
        width: face.finding.box!.width,
        sharpness: Math.round(face.finding.sharpness ?? 0),
        hereWidth: here!.box!.width,
        hereSharpness: Math.round(here!.sharpness ?? 0),
      }),
    };
  }

  /** The department people are created in: this company's, else refused naming the field. */
  async function departmentOf(companyId: number, id: number) {
    if (!(await departmentsRepository.all(db, companyId)).some((d) => d.id === id)) throw invalid('department_id');
  }

  /**
   * Applies the administrator's review on one terminal (issue #30): `create` makes a person of a user the terminal holds
   * (its number, name, card, validity, and its face when the face check takes it), `link` says the user is a person
   * already here with the same number, `skip` leaves it on the terminal, not managed. Either way the ledger then holds
   * the user as on the terminal (nothing is sent to it or deleted from it), and the people's earlier punches attach
   * (punches claimStrangers). One transaction a batch; running it again writes nothing ("unchanged"). Answers the
   * counts and what became of each number.
   */
  async function applyOn(
    tenant: Tenant,
    lang: Language,
    device: DeviceRow,
    departmentId: number,
    all: RosterApplyRow[],
    progress: (rows: number) => Promise<void> = async () => undefined,
  ) {
    const { companyId } = tenant;
    const empty = (): RosterApplied => ({ created: 0, linked: 0, skipped: 0, unchanged: 0, refused: [], faceless: [], photos: [] });
    const total = empty();
    const outcomes = new Map<string, Outcome>();
    // each attempt of a batch's transaction counts afresh (transaction() may run it again): kept once it commits
    let out = empty();
    let done = new Map<string, Outcome>();
    const refuse = (pin: string, key: string, params: Params = {}) => {
      out.refused.push({ pin, reason: t(lang, key, { pin, ...params }) });
      done.set(pin, 'refused');
    };
    const count = (pin: string, o: Exclude<Outcome, 'refused'>) => {
      out[o]++;
      done.set(pin, o);
    };
    const seen = new Set<string>();
    for (const batch of chunks(all, APPLY_BATCH)) {
      // a server closing stops here, before a batch's faces are stored and checked (seconds)
      await progress(0);
      const rows = batch.filter((r) => !seen.has(r.pin) && seen.add(r.pin));
      if (!rows.length) {
        await progress(batch.length);
        continue;
      }
      const held = new Map(
        (
          await db
            .selectFrom('terminal_users')
            .selectAll()
            .where('company_id', '=', companyId)
            .where('device_id', '=', device.id)
            .where(
              'pin',
              'in',
              rows.map((r) => r.pin),
            )
            .execute()
        ).map((u) => [u.pin, u]),
      );
      // Faces are checked before the transaction (the check takes time; the database is not held meanwhile).
      const faces = new Map<string, { pic: string } | { reason: string }>();
      const numbers = await personsRepository.byNumbers(
        db,
        companyId,
        rows.map((r) => r.pin),
      );
      for (const r of rows) {
        const u = held.get(r.pin);
        // only for a user that will be created (the transaction checks again): no face stored for one refused
        if (r.action === 'create' && u && u.name && u.kind === 'normal' && !numbers.has(r.pin))
          faces.set(r.pin, await faceFor(companyId, u.face, u.face_check, lang));
      }
      // a linked person's photo may give way to the terminal's face (linkedFace): weighed here, written below; not
      // for one the ledger holds on this terminal already (linked before: nothing to weigh again)
      const onTerminal = await ledgerHolds(
        db,
        companyId,
        device.id,
        [...numbers.values()].map((p) => p.id),
      );
      const linkFaces = new Map<string, { stored: string; why?: string; photo: string }>();
      for (const r of rows) {
        const u = held.get(r.pin);
        const p = numbers.get(r.pin);
        if (r.action === 'link' && u?.face && p && p.id === r.person_id && (!onTerminal.has(p.id) || !p.photo)) {
          const f = await linkedFace(companyId, p, u, lang);
          if (f.stored) linkFaces.set(r.pin, { ...f, photo: p.photo });
        }
      }
      const made = [...faces.values()].flatMap((f) => ('pic' in f ? [f.pic] : [])).concat([...linkFaces.values()].map((f) => f.stored));
      // the photos linked people held before the terminal's face replaced them: deleted once no one holds them
      const replaced: string[] = [];
      try {
        await transaction(db, async (trx) => {
          out = empty();
          done = new Map();
          const now = nowIso();
          const people: Held[] = [];
          const rephotographed: number[] = [];
          const taken = await personsRepository.byNumbers(
            trx,
            companyId,
            rows.map((r) => r.pin),
          );
          // a user whose removal from the terminal is on its way is not taken over (it is about to be gone)
          const leaving = await removals(trx, companyId, device.id);
          const heldHere = await ledgerHolds(
            trx,
            companyId,
            device.id,
            [...taken.values()].map((p) => p.id),
          );
          for (const r of rows) {
            const u = held.get(r.pin);
            if (u && leaving.has(r.pin) && r.action !== 'skip') {
              refuse(r.pin, 'roster.leaving');
              continue;
            }
            if (!u) {
              refuse(r.pin, 'roster.notRead');
              continue;
            }
            if (r.action === 'skip') {
              count(r.pin, 'skipped');
              continue;
            }
            const existing = taken.get(r.pin);
            if (r.action === 'link') {
              if (r.person_id === undefined) refuse(r.pin, 'roster.linkWhom');
              else if (!existing || existing.id !== r.person_id) {
                const other = await personsRepository.findMany(trx, companyId, [r.person_id]);
                if (!other[0]) refuse(r.pin, 'roster.noPerson');
                else refuse(r.pin, 'roster.linkNumber', { name: other[0].name, number: other[0].number });
              } else if (heldHere.get(existing.id) === 'leaving') {
                refuse(r.pin, 'roster.leaving');
              } else if (heldHere.get(existing.id) === 'held' && !linkFaces.get(r.pin)?.why) {
                // linked (or sent) before: the terminal holds their current record already, nothing to write
                count(r.pin, 'unchanged');
              } else {
                // the record here is the truth: the terminal's user is updated to it (nothing deleted)
                people.push({ id: existing.id, pin: r.pin, held: 'pending' });
                count(r.pin, 'linked');
                // unless its face is the better one: then it is the person's photo, on every terminal (a new revision)
                const face = linkFaces.get(r.pin);
                if (face?.why && existing.photo === face.photo) {
                  await personsRepository.update(trx, companyId, existing.id, {
                    photo: face.stored,
                    revision: existing.revision + 1,
                    sync_status: 0,
                    updated_at: now,
                  });
                  if (existing.photo) replaced.push(existing.photo);
                  rephotographed.push(existing.id);
                  out.photos.push({ pin: r.pin, reason: face.why });
                }
              }
              continue;
            }
            // create: a second run finds the person the first one made, and writes nothing for them
            if (existing) {
              if (existing.name === u.name.slice(0, LIMITS.personNameMax)) {
                count(r.pin, 'unchanged');
              } else refuse(r.pin, 'errors.numberTaken', { number: r.pin });
              continue;
            }
            if (!u.name) {
              refuse(r.pin, 'roster.noName');
              continue;
            }
            // a visitor or a blacklisted face on the terminal is never made staff (docs/isapi-protocol.md §12.2)
            if (u.kind !== 'normal') {
              refuse(r.pin, 'roster.notStaff');
              continue;
            }
            const face = faces.get(r.pin);
            const pic = face && 'pic' in face ? face.pic : '';
            if (face && 'reason' in face) out.faceless.push({ pin: r.pin, reason: face.reason });
            const id = await personsRepository.insert(
              trx,
              companyId,
              newPersonRow({
                number: r.pin,
                name: u.name.slice(0, LIMITS.personNameMax),
                phone: '',
                photo: pic,
                rfid: u.card,
                gender: u.gender === 'male' || u.gender === 'female' ? u.gender : null,
                work_status: WORK_STATUS.working,
                user_pri: u.admin ? 14 : 0,
                // the terminal's validity, as the person's access window (the form's "limited-time access")
                access_from: u.valid_from ? u.valid_from.slice(0, 10) : null,
                access_to: u.valid_to ? u.valid_to.slice(0, 10) : null,
                created_at: now,
              }),
            );
            await personsRepository.setDepartments(trx, companyId, id, [departmentId]);
            people.push({ id, pin: r.pin, held: 'synced' });
            count(r.pin, 'created');
          }
          if (!people.length) return;
          const created = people.filter((p) => p.held === 'synced').map((p) => p.id);
          if (created.length || rephotographed.length)
            await deps.persons.peopleChanged.emit(trx, { companyId, personIds: [...created, ...rephotographed], kind: 'saved' });
          // What the terminal holds is what the ledger holds: these people are on it, as they are now.
          const written = (await markHeld(trx, companyId, device.id, people, now)) + rephotographed.length;
          // a second run (everyone created or linked already) writes nothing, its log line included
          if (written) await audit(trx, tenant, 'device', 'device.takeOver', { id: device.id, name: device.name, people: written });
        });
        total.created += out.created;
        total.linked += out.linked;
        total.skipped += out.skipped;
        total.unchanged += out.unchanged;
        total.refused.push(...out.refused);
        total.faceless.push(...out.faceless);
        total.photos.push(...out.photos);
        for (const [pin, o] of done) outcomes.set(pin, o);
      } finally {
        // faces stored for rows not created (rolled back, or a number taken meanwhile) or not kept, and the photos
        // the kept ones replaced; release keeps what a person holds
        await deps.persons.photos.release(companyId, [...made, ...replaced]);
      }
      // each batch committed is progress (and where a server closing stops the apply: the next run finishes it)
      await progress(batch.length);
    }
    return { total, outcomes };
  }

  /**
   * The site's review applied (applySite): the rows dealt out to the terminals holding them, each terminal's part
   * applied (applyOn), then the other terminals holding a number just made linked to the person. `progress` counts
   * terminal records (a number on three terminals is three), `setTotal` says how many once they are dealt out.
   */
  async function applySiteRun(
    tenant: Tenant,
    lang: Language,
    body: RosterSiteApplyBody,
    progress: (rows: number) => Promise<void>,
    setTotal: (total: number) => Promise<void>,
  ): Promise<RosterApplied> {
    const { companyId } = tenant;
    const rows = [...new Map(body.rows.map((r) => [r.pin, r])).values()];
    const holdings = new Map<string, { device_id: number; name: string; kind: string; face: string; face_bytes: number; face_check: string }[]>();
    for (const part of chunks(rows.map((r) => r.pin)))
      for (const h of await db
        .selectFrom('terminal_users')
        .select(['device_id', 'pin', 'name', 'kind', 'face', 'face_bytes', 'face_check'])
        .where('company_id', '=', companyId)
        .where('pin', 'in', part)
        .orderBy('device_id')
        .execute())
        holdings.set(h.pin, [...(holdings.get(h.pin) ?? []), h]);
    const total: RosterApplied = { created: 0, linked: 0, skipped: 0, unchanged: 0, refused: [], faceless: [], photos: [] };
    const first = new Map<number, RosterApplyRow[]>();
    const then = new Map<number, string[]>();
    // what the link pass could not do on a terminal: said, without undoing the person made
    const notes: { pin: string; device: number; reason: string }[] = [];
    // appended in place: a terminal's part may be thousands of rows (a copy per row would be quadratic)
    const add = <T>(m: Map<number, T[]>, id: number, x: T) => {
      const part = m.get(id);
      if (part) part.push(x);
      else m.set(id, [x]);
    };
    for (const r of rows) {
      const held = holdings.get(r.pin);
      if (!held) {
        total.refused.push({ pin: r.pin, reason: t(lang, 'roster.notRead', { pin: r.pin }) });
        continue;
      }
      if (r.action !== 'create') {
        for (const h of held) add(first, h.device_id, r);
        continue;
      }
      const from = sourceOf(held)!;
      add(first, from.device_id, r);
      for (const h of held) {
        if (h === from) continue;
        // a visitor or a blacklisted face under the same number elsewhere is never made this staff member's record
        if (h.kind !== 'normal') notes.push({ pin: r.pin, device: h.device_id, reason: t(lang, 'roster.notStaff', { pin: r.pin }) });
        else add(then, h.device_id, r.pin);
      }
    }
    const ids = [...new Set([...first.keys(), ...then.keys()])];
    const parts = (m: Map<number, unknown[]>) => [...m.values()].reduce((n, part) => n + part.length, 0);
    await setTotal(parts(first) + parts(then));
    const devices = new Map(
      (ids.length ? await db.selectFrom('devices').selectAll().where('company_id', '=', companyId).where('id', 'in', ids).execute() : []).map((d) => [d.id, d]),
    );
    // per number: what the first pass did on each terminal (a refusal on any terminal is the number's refusal)
    const outcome = new Map<string, Outcome>();
    const refusals = new Map<string, string>();
    // a number linked anew on one terminal and held already on another was linked; unchanged only where every
    // terminal held it already
    const weight: Record<Exclude<Outcome, 'refused'>, number> = { unchanged: 0, skipped: 1, linked: 2, created: 3 };
    const merge = (r: RosterApplied, outcomes: Map<string, Outcome>, device: DeviceRow) => {
      for (const [pin, o] of outcomes) {
        const was = outcome.get(pin);
        if (o !== 'refused' && (was === undefined || was === 'refused' || weight[o] > weight[was])) outcome.set(pin, o);
      }
      for (const x of r.refused) if (!refusals.has(x.pin)) refusals.set(x.pin, `${device.name}: ${x.reason}`);
      total.faceless.push(...r.faceless);
      total.photos.push(...r.photos);
    };
    for (const [id, part] of first) {
      // a terminal deleted meanwhile: its numbers were not read for this site any more
      const device = devices.get(id);
      if (!device) {
        for (const r of part) if (!refusals.has(r.pin)) refusals.set(r.pin, t(lang, 'roster.notRead', { pin: r.pin }));
        await progress(part.length);
        continue;
      }
      const r = await applyOn(tenant, lang, device, body.department_id, part, progress);
      merge(r.total, r.outcomes, device);
    }
    // the other terminals holding a number just made a person: linked to them (their faces weighed)
    const made = await personsRepository.byNumbers(db, companyId, [...new Set([...then.values()].flat())]);
    for (const [id, pins] of then) {
      const device = devices.get(id);
      const part = pins.flatMap((pin) => {
        const p = made.get(pin);
        return p && outcome.has(pin) ? [{ pin, action: 'link' as const, person_id: p.id }] : [];
      });
      // the numbers not linked here (no person made) are done with as well
      await progress(pins.length - (device ? part.length : 0));
      if (!device || !part.length) continue;
      const r = await applyOn(tenant, lang, device, body.department_id, part, progress);
      for (const x of r.total.refused) notes.push({ pin: x.pin, device: id, reason: x.reason });
      total.photos.push(...r.total.photos);
    }
    for (const r of rows) {
      const refused = refusals.get(r.pin);
      if (refused !== undefined) total.refused.push({ pin: r.pin, reason: refused });
      else {
        const o = outcome.get(r.pin);
        if (o) total[o]++;
      }
    }
    for (const n of notes) total.refused.push({ pin: n.pin, reason: `${devices.get(n.device)?.name ?? ''}: ${n.reason}` });
    return total;
  }

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
              gender: u.gender ?? '',
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
              gender: eb.ref('excluded.gender'),
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
        .onConflict((oc) => oc.columns(['device_id', 'pin']).doUpdateSet({ face: key, face_bytes: jpeg.length, face_check: '' }))
        .execute();
      examineLater(d.id, pin, key, true);
      return true;
    },

    /** One device's users as read, by PIN, each with how it stands against the company's people (RosterMatch). */
    async list(ex: Executor, companyId: number, deviceId: number, page: { offset: number; limit: number }, show: 'all' | 'unmanaged' = 'all') {
      // The whole roster is matched (a terminal holds thousands at most), so the review can count each kind of match.
      const rows = await ex
        .selectFrom('terminal_users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('device_id', '=', deviceId)
        .orderBy(sql`length(pin)`)
        .orderBy('pin')
        .execute();
      examineUnchecked(rows);
      const against = await peopleMatcher(ex, companyId, rows);
      // managed: the ledger holds a person under this number on this terminal; removing: a removal is on its way
      const managed = new Set(
        (await ex.selectFrom('device_persons').select('pin').where('company_id', '=', companyId).where('device_id', '=', deviceId).execute()).map((r) => r.pin),
      );
      const removing = await removals(ex, companyId, deviceId);
      const all = rows.map((r) => ({
        ...r,
        ...against(r.pin, r.name),
        verdict: verdictOf(r.face, r.face_check),
        managed: managed.has(r.pin),
        removing: removing.has(r.pin),
      }));
      const counts: Record<RosterMatch | 'unmanaged' | 'faceRefused' | 'faceUnchecked', number> = {
        matched: 0,
        conflict: 0,
        byName: 0,
        new: 0,
        unmanaged: 0,
        faceRefused: 0,
        faceUnchecked: 0,
      };
      for (const r of all) {
        counts[r.match]++;
        if (!r.managed) counts.unmanaged++;
        if (r.verdict === 'unchecked') counts.faceUnchecked++;
        else if (r.verdict && 'key' in r.verdict) counts.faceRefused++;
      }
      const shown = show === 'unmanaged' ? all.filter((r) => !r.managed) : all;
      return { items: shown.slice(page.offset, page.offset + page.limit), total: shown.length, counts };
    },

    /**
     * The whole site's review (issue #30, "several terminals, one person"): every number the company's terminals hold,
     * once, with the terminals holding it, how it stands against the people, whether the terminals disagree on its
     * name (split) and which other numbers carry the same name (twins).
     */
    async listSite(ex: Executor, companyId: number, page: { offset: number; limit: number }, show: RosterSiteShow = 'all') {
      const rows = await ex
        .selectFrom('terminal_users')
        .innerJoin('devices', 'devices.id', 'terminal_users.device_id')
        .selectAll('terminal_users')
        .select('devices.name as device_name')
        .where('terminal_users.company_id', '=', companyId)
        .orderBy(sql`length(terminal_users.pin)`)
        .orderBy('terminal_users.pin')
        .orderBy('terminal_users.device_id')
        .execute();
      examineUnchecked(rows);
      const groups = new Map<string, typeof rows>();
      for (const r of rows) groups.set(r.pin, [...(groups.get(r.pin) ?? []), r]);
      const managed = new Set(
        (
          await ex
            .selectFrom('device_persons')
            .select(['device_id', 'pin'])
            .where('company_id', '=', companyId)
            .where('device_id', 'in', [0, ...new Set(rows.map((r) => r.device_id))])
            .execute()
        ).map((r) => `${r.device_id}:${r.pin}`),
      );
      const named = [...groups.values()].map((g) => {
        // the terminal a new person is made from (its name, card, validity, admin), and the face they end up with
        const main = sourceOf(g)!;
        const from = main.face ? main : faceSource(g.filter((x) => x.face));
        return { g, from, main };
      });
      const against = await peopleMatcher(
        ex,
        companyId,
        named.map(({ main }) => main),
      );
      const pinsByName = new Map<string, string[]>();
      for (const { main } of named)
        if (main.name) {
          const key = norm(main.name);
          const pins = pinsByName.get(key);
          if (pins) pins.push(main.pin);
          else pinsByName.set(key, [main.pin]);
        }
      const all = named.map(({ g, from, main }) => {
        const terminals = g.map((x) => ({
          id: x.device_id,
          name: x.device_name,
          user_name: x.name,
          face: x.face,
          face_bytes: x.face_bytes,
          verdict: verdictOf(x.face, x.face_check),
          read_at: x.read_at,
          managed: managed.has(`${x.device_id}:${x.pin}`),
        }));
        return {
          pin: main.pin,
          name: main.name,
          card: main.card,
          admin: main.admin === 1,
          kind: main.kind,
          terminals,
          face_from: from?.device_id ?? null,
          ...against(main.pin, main.name),
          split: new Set(g.filter((x) => x.name).map((x) => norm(x.name))).size > 1,
          twins: main.name ? othersOf(pinsByName.get(norm(main.name)) ?? [], main.pin, TWINS_SHOWN) : [],
          managed: terminals.every((x) => x.managed),
        };
      });
      const counts = {
        people: all.length,
        terminals: new Set(rows.map((r) => r.device_id)).size,
        across: 0,
        matched: 0,
        conflict: 0,
        byName: 0,
        new: 0,
        split: 0,
        twin: 0,
        unmanaged: 0,
        // numbers whose faces the check refuses, every one of them (none to take)
        faceRefused: 0,
        faceUnchecked: 0,
      };
      for (const r of all) {
        const verdicts = r.terminals.map((x) => x.verdict).filter((v) => v !== undefined);
        if (verdicts.includes('unchecked')) counts.faceUnchecked++;
        else if (verdicts.length && verdicts.every((v) => v !== 'unchecked' && 'key' in v)) counts.faceRefused++;
        counts[r.match]++;
        if (r.terminals.length > 1) counts.across++;
        if (r.split) counts.split++;
        if (r.twins.length) counts.twin++;
        if (!r.managed) counts.unmanaged++;
      }
      // to settle before applying: a number taken by another name, names that disagree or repeat, no face to take
      const unsettled = (r: (typeof all)[number]) =>
        r.match === 'conflict' ||
        r.split ||
        r.twins.length > 0 ||
        (r.terminals.some((x) => x.verdict) && r.terminals.every((x) => !x.verdict || (x.verdict !== 'unchecked' && 'key' in x.verdict)));
      const conflicts = all.filter(unsettled);
      const shown = show === 'across' ? all.filter((r) => r.terminals.length > 1) : show === 'conflicts' ? conflicts : all;
      return { items: shown.slice(page.offset, page.offset + page.limit), total: shown.length, counts: { ...counts, conflicts: conflicts.length } };
    },

    /**
     * Removes users from a terminal (issue #30, "on the terminal, not managed"): users no person here is managed as,
     * each by one command; the user leaves the roster when the terminal confirms (sync.service results). A user the
     * ledger holds is refused: a person leaves a terminal through their own devices, or the ledger would send them back.
     */
    async remove(tenant: Tenant, lang: Language, body: RosterRemoveBody): Promise<RosterRemoved> {
      const { companyId } = tenant;
      const device = await devicesRepository.find(db, companyId, body.id);
      if (!device) throw notFound();
      const pins = [...new Set(body.pins)];
      return transaction(db, async (trx) => {
        const out: RosterRemoved = { queued: 0, refused: [] };
        const held = new Set<string>();
        const managed = new Set<string>();
        for (const part of chunks(pins)) {
          for (const u of await trx
            .selectFrom('terminal_users')
            .select('pin')
            .where('company_id', '=', companyId)
            .where('device_id', '=', device.id)
            .where('pin', 'in', part)
            .execute())
            held.add(u.pin);
          for (const u of await trx.selectFrom('device_persons').select('pin').where('device_id', '=', device.id).where('pin', 'in', part).execute())
            managed.add(u.pin);
        }
        const already = await removals(trx, companyId, device.id);
        const queued: string[] = [];
        for (const pin of pins) {
          if (!held.has(pin)) out.refused.push({ pin, reason: t(lang, 'roster.notRead', { pin }) });
          else if (managed.has(pin)) out.refused.push({ pin, reason: t(lang, 'roster.managed', { pin }) });
          else {
            // asked twice: the removal on its way counts, no second command
            if (!already.has(pin)) {
              await deps.queue(trx, device, { kind: 'deleteUser', pin });
              queued.push(pin);
            }
            out.queued++;
          }
        }
        if (queued.length)
          await audit(trx, tenant, 'device', 'device.removeUsers', {
            id: device.id,
            name: device.name,
            count: queued.length,
            pins: queued.slice(0, 20).join(', '),
          });
        return out;
      });
    },

    /**
     * Applies the administrator's review (issue #30): `create` makes a person of a user the terminal holds (its
     * number, name, card, validity, and its face when the face check takes it), `link` says the user is a person
     * already here with the same number, `skip` leaves it on the terminal, not managed. Either way the ledger then
     * holds the user as on the terminal (nothing is sent to it or deleted from it), and the people's earlier punches
     * attach (punches claimStrangers). One transaction a batch; running it again writes nothing ("unchanged").
     */
    async apply(tenant: Tenant, lang: Language, body: RosterApplyBody): Promise<RosterApplyJob> {
      const device = await devicesRepository.find(db, tenant.companyId, body.id);
      if (!device) throw notFound();
      await departmentOf(tenant.companyId, body.department_id);
      return jobs.start(tenant, { scope: 'device', device_id: device.id, total: body.rows.length }, async (progress) => {
        return (await applyOn(tenant, lang, device, body.department_id, body.rows, progress)).total;
      });
    },

    /**
     * The whole site's review applied (issue #30, "several terminals, one person"): a number held by several terminals
     * becomes one person. `create` makes them from the terminal the review named (sourceOf: a named staff user, then the
     * best face), then links them on every other terminal holding the number as staff, where a better face replaces
     * theirs (linkedFace says which and why); `link` and `skip` apply on every terminal holding the number. Counted
     * once a number (what the other terminals could not do is said beside it); idempotent as each terminal's apply is.
     */
    async applySite(tenant: Tenant, lang: Language, body: RosterSiteApplyBody): Promise<RosterApplyJob> {
      await departmentOf(tenant.companyId, body.department_id);
      // the total is known once the rows are dealt out to the terminals holding them (applySiteRun says it)
      return jobs.start(tenant, { scope: 'site', device_id: 0, total: body.rows.length }, (progress, setTotal) =>
        applySiteRun(tenant, lang, body, progress, setTotal),
      );
    },

    /** An apply's progress and, once over, its result (another company's id: not found). */
    applyInfo: (tenant: Tenant, id: number) => jobs.info(tenant, id),
    /** The company's apply going on, else its last one, else null. */
    applyCurrent: (tenant: Tenant) => jobs.current(tenant),
    /** Forgets applies over for a week (an hourly job). */
    sweepApplies: () => jobs.sweep(),

    /** Stops checking faces and applying (the server closes): the face being checked and the batch being applied finish. */
    async close() {
      closed = true;
      await Promise.all([examining, jobs.settle()]);
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

/**
 * Of these people, how the ledger stands for them on this terminal: `held` when the terminal holds their current record
 * (synced, the last revision applied: a link made before, or a person this server put there), `leaving` when their
 * removal from it is on its way (desired revision 0); people with no row, or one still to be sent (a scope's new
 * person), are not listed: a link of theirs is new.
 */
async function ledgerHolds(ex: Executor, companyId: number, deviceId: number, personIds: number[]): Promise<Map<number, 'held' | 'leaving'>> {
  const out = new Map<number, 'held' | 'leaving'>();
  for (const part of chunks(personIds))
    for (const r of await ex
      .selectFrom('device_persons')
      .select(['person_id', 'state', 'desired_rev', 'applied_rev'])
      .where('company_id', '=', companyId)
      .where('device_id', '=', deviceId)
      .where('person_id', 'in', part)
      .execute()) {
      if (r.desired_rev === 0) out.set(r.person_id, 'leaving');
      else if (r.state === 'synced' && r.applied_rev === r.desired_rev) out.set(r.person_id, 'held');
    }
  return out;
}

/** The numbers a removal is on its way for on this terminal (one-off deleteUser commands not answered yet). */
async function removals(ex: Executor, companyId: number, deviceId: number): Promise<Set<string>> {
  const rows = await ex
    .selectFrom('device_commands')
    .select('payload')
    .where('company_id', '=', companyId)
    .where('device_id', '=', deviceId)
    .where('kind', '=', 'deleteUser')
    .where('person_id', 'is', null)
    .where('state', 'in', ['queued', 'sent'])
    .execute();
  return new Set(rows.map((r) => parseJson<{ pin?: string }>(r.payload, {}).pin ?? '').filter(Boolean));
}

interface Held {
  id: number;
  pin: string;
  held: 'synced' | 'pending';
}

/** The ledger rows of people a terminal already holds (created from it: synced; linked to a person here: pending). */
async function markHeld(trx: Executor, companyId: number, deviceId: number, people: Held[], now: string): Promise<number> {
  const revisions = new Map(
    (
      await personsRepository.findMany(
        trx,
        companyId,
        people.map((p) => p.id),
      )
    ).map((p) => [p.id, p.revision]),
  );
  let written = 0;
  for (const p of people) {
    const rev = revisions.get(p.id) ?? 0;
    const row = await trx
      .insertInto('device_persons')
      .values({
        company_id: companyId,
        device_id: deviceId,
        person_id: p.id,
        pin: p.pin,
        desired_rev: rev,
        // created from the terminal's own record: held as it is; linked: the record here is sent over the terminal's
        applied_rev: p.held === 'synced' ? rev : 0,
        state: p.held,
        updated_at: now,
        last_code: null,
        last_attempt_at: null,
        next_attempt_at: null,
      })
      .onConflict((oc) =>
        // a person just created may have been put on the terminal by its scope in this transaction: held, not sent;
        // a linked person's row, if any, is the ledger's own account and is left as it is
        p.held === 'synced'
          ? oc
              .columns(['device_id', 'person_id'])
              .doUpdateSet({ pin: p.pin, desired_rev: rev, applied_rev: rev, state: 'synced', inflight: 0, updated_at: now })
          : oc.columns(['device_id', 'person_id']).doNothing(),
      )
      .returning('person_id')
      .execute();
    written += row.length;
  }
  await ledgerRepository.refreshPersonStatus(
    trx,
    companyId,
    people.map((p) => p.id),
  );
  return written;
}

/** What became of a number on a terminal when a review was applied. */
type Outcome = 'created' | 'linked' | 'skipped' | 'unchanged' | 'refused';
type RosterApplyRow = RosterApplyBody['rows'][number];

/**
 * Of the terminals holding a number, the one whose face a new person takes: a face the check passed before one it
 * has not checked yet, before one it refused, of those the better (betterFace: larger, then sharper), else the larger file, else the
 * first terminal.
 */
function faceSource<T extends { device_id: number; face: string; face_bytes: number; face_check: string }>(held: T[]): T | undefined {
  const rank = (h: T) => {
    const v = verdictOf(h.face, h.face_check);
    // passed, then not checked yet (it may pass), then refused, then none
    return !v ? 0 : v === 'unchecked' ? 2 : 'ok' in v ? 3 : 1;
  };
  const finding = (h: T): FaceFinding | undefined => {
    const v = verdictOf(h.face, h.face_check);
    return v && v !== 'unchecked' && 'ok' in v && v.width
      ? { faces: 1, box: { x: 0, y: 0, width: v.width, height: v.width }, sharpness: v.sharpness ?? 0 }
      : undefined;
  };
  return held.reduce<T | undefined>((best, h) => {
    if (!best) return h;
    if (rank(h) !== rank(best)) return rank(h) > rank(best) ? h : best;
    const a = finding(best);
    const b = finding(h);
    if (a && b) return betterFace(a, b) ? h : betterFace(b, a) ? best : h.face_bytes > best.face_bytes ? h : best;
    return h.face_bytes > best.face_bytes ? h : best;
  }, undefined);
}

/**
 * Of the terminals holding a number, the one a new person is made from (name, card, validity, admin, face): a staff
 * user with a name before a nameless one or a visitor's, then the face to take (faceSource). The review shows this one,
 * and applying makes the person from it.
 */
function sourceOf<T extends { device_id: number; name: string; kind: string; face: string; face_bytes: number; face_check: string }>(held: T[]): T | undefined {
  const staff = held.filter((h) => h.name && h.kind === 'normal');
  const named = held.filter((h) => h.name);
  return faceSource(staff.length ? staff : named.length ? named : held);
}

/** Other numbers shown under one name: a few (a site may hold thousands of "Visitor"). */
const TWINS_SHOWN = 5;

/** Up to `max` of `pins` other than `pin`. */
function othersOf(pins: string[], pin: string, max: number): string[] {
  const out: string[] = [];
  for (const p of pins) {
    if (p !== pin) out.push(p);
    if (out.length === max) break;
  }
  return out;
}

/** What the face check made of a terminal's face (terminal_users.face_check, migration 0046). */
export type FaceVerdict = ({ ok: true; width?: number; sharpness?: number } | { key: string; params?: Params }) & {
  /** the size of the file checked, to know the verdict is this file's (a face read again keeps its key) */
  bytes?: number;
};

/** A row's verdict: none without a face, 'unchecked' until the check has run. */
function verdictOf(face: string, check: string): FaceVerdict | 'unchecked' | undefined {
  if (!face) return undefined;
  if (!check) return 'unchecked';
  return parseJson<FaceVerdict>(check, { ok: true });
}

/**
 * How users read from terminals stand against the company's people (RosterMatch), and the person each stands for: the
 * person with the number (matched, or conflict under another name), else one with the name (byName), else none (new).
 */
async function peopleMatcher(ex: Executor, companyId: number, users: { pin: string; name: string }[]) {
  const byNumber = new Map<string, { id: number; name: string }>();
  const byName = new Map<string, { id: number; number: string }>();
  for (const part of chunks(users.map((r) => r.pin)))
    for (const p of await ex.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).where('number', 'in', part).execute())
      byNumber.set(p.number, p);
  for (const part of chunks([...new Set(users.map((r) => r.name).filter(Boolean))]))
    for (const p of await ex.selectFrom('persons').select(['id', 'number', 'name']).where('company_id', '=', companyId).where('name', 'in', part).execute())
      byName.set(norm(p.name), p);
  return (pin: string, name: string) => {
    const same = byNumber.get(pin);
    const named = name ? byName.get(norm(name)) : undefined;
    const match: RosterMatch = same ? (!name || norm(same.name) === norm(name) ? 'matched' : 'conflict') : named ? 'byName' : 'new';
    return {
      match,
      person_id: same?.id ?? named?.id ?? null,
      person_name: same?.name ?? (named ? name : ''),
      person_number: same ? pin : (named?.number ?? ''),
    };
  };
}
