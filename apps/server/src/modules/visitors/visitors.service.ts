import { randomInt } from 'node:crypto';
import { DEVICE_OPTION_DEFAULTS, VISIT_MAX_DAYS, type VisitorInvite, type VisitorInvited, type VisitPublic, type Visitor } from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { badInput, invalid, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { clock, nowIso, zoneOffsetMs } from '../../lib/time.ts';
import type { PersonContext, Tenant } from '../../plugins/auth.ts';
import type { SmsSender } from '../auth/sms.service.ts';
import type { SyncService } from '../devices/sync.service.ts';
import { publish } from '../live/publish.ts';
import { audit } from '../logs/logs.service.ts';
import { notify } from '../messages/messages.service.ts';
import { newPersonRow, personsRepository, VISITOR } from '../persons/persons.repository.ts';
import type { FaceCheck } from '../persons/face-check.ts';
import { normalizePhoto, type PhotoStore } from '../persons/photos.ts';
import { selfRepository } from '../workflow/self.repository.ts';
import { presentVisitor } from './visitors.presenter.ts';
import { visitorsRepository, type VisitFilter, type VisitorListRow } from './visitors.repository.ts';

/** Who invites: an administrator of the console, or an employee on the self-service page. */
export type Inviter = { kind: 'admin'; tenant: Tenant } | { kind: 'person'; person: PersonContext };
const companyOf = (i: Inviter) => (i.kind === 'admin' ? i.tenant.companyId : i.person.companyId);

/** States an invitation still opens doors in (or will, once the face is there). */
const OPEN = ['invited', 'active'];
/** Ended visitors the job handles per run at most (it runs every minute). */
const END_BATCH = 200;

/** Whether a device lets visitors in (spec §3 device option allowvisit). */
const allowsVisits = (options: string) => Number(parseJson<{ allowvisit?: number }>(options, {}).allowvisit ?? DEVICE_OPTION_DEFAULTS.allowvisit) === 1;

/**
 * Visitors (#19): the invitation, the visitor's link page, the sync to the doors through the ledger (a hidden person
 * of kind 'visitor' with the window as the terminal's own user validity), the end of the window, the visit log.
 */
export function visitorsService(deps: {
  database: Database;
  photos: PhotoStore;
  sync: SyncService;
  sms: SmsSender | null;
  log?: FastifyBaseLogger;
  faceCheck?: FaceCheck;
}) {
  const { db } = deps.database;
  const { sync, photos } = deps;

  async function present(ex: Executor, companyId: number, rows: VisitorListRow[]): Promise<Visitor[]> {
    const ids = [...new Set(rows.flatMap((r) => parseJson<number[]>(r.device_ids, [])))];
    const names = await visitorsRepository.deviceNames(ex, companyId, ids);
    return rows.map((r) => presentVisitor(r, names));
  }
  async function loadOne(ex: Executor, companyId: number, id: number): Promise<Visitor> {
    const row = await visitorsRepository.find(ex, companyId, id);
    if (!row) throw notFound();
    return (await present(ex, companyId, [row]))[0]!;
  }

  /** A numeric PIN no one of the company has (terminals match faces to PINs; 9 digits leave employees theirs). */
  async function freePin(ex: Executor, companyId: number): Promise<string> {
    for (;;) {
      const pin = String(randomInt(900_000_000, 1_000_000_000));
      if (!(await visitorsRepository.numberTaken(ex, companyId, pin))) return pin;
    }
  }

  /** The doors: the company's devices with allowvisit on; any other id is refused naming the field. */
  async function checkDoors(ex: Executor, companyId: number, ids: number[]) {
    const found = await visitorsRepository.devices(ex, companyId, ids);
    if (found.length !== ids.length || found.some((d) => !allowsVisits(d.options))) throw invalid('device_ids', 'reasons.notVisitorDoor');
    return found;
  }

  /** The window: real instants, forward, not over, at most VISIT_MAX_DAYS long. */
  function checkWindow(input: Pick<VisitorInvite, 'starts_at' | 'ends_at'>) {
    const start = Date.parse(input.starts_at);
    const end = Date.parse(input.ends_at);
    if (!(end > start)) throw invalid('ends_at', 'reasons.windowOrder');
    if (end <= clock.now()) throw invalid('ends_at', 'reasons.windowPast');
    if (end - start > VISIT_MAX_DAYS * 86_400_000) throw invalid('ends_at', 'reasons.visitTooLong', { days: VISIT_MAX_DAYS });
    // Seconds are what terminals keep: the window is stored to the second, in UTC.
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();
    return { starts_at: iso(start), ends_at: iso(end) };
  }

  /** Ends (or cancels) an open invitation: its hidden person leaves, so the ledger deletes the user on every door. */
  async function close(trx: Executor, companyId: number, visitorId: number, personId: number, state: 'ended' | 'cancelled') {
    const now = nowIso();
    await visitorsRepository.setState(trx, companyId, visitorId, state, now);
    const person = await personsRepository.find(trx, companyId, personId);
    if (person && person.work_status === 1)
      await personsRepository.update(trx, companyId, personId, { work_status: 0, revision: person.revision + 1, updated_at: now });
    await sync.touch(trx, companyId, [personId]);
  }

  return {
    doors: async (companyId: number) => ({
      items: (await visitorsRepository.allDevices(db, companyId)).filter((d) => allowsVisits(d.options)).map((d) => ({ id: d.id, name: d.name })),
    }),

    async list(inviter: Inviter, f: { keyword?: string | undefined; state?: string | undefined; offset: number; limit: number }) {
      const companyId = companyOf(inviter);
      const r = await visitorsRepository.list(db, companyId, { ...f, inviterPersonId: inviter.kind === 'person' ? inviter.person.personId : undefined });
      return { items: await present(db, companyId, r.items), total: r.total };
    },

    /**
     * Invites a visitor: the hidden person (no face yet, on no door), the invitation and its one-time link, sent by
     * SMS where SMS is configured. `origin` makes the link absolute (what an SMS needs).
     */
    async invite(inviter: Inviter, input: VisitorInvite, origin: string): Promise<VisitorInvited> {
      const companyId = companyOf(inviter);
      const window = checkWindow(input);
      const token = newToken().slice(0, 32);
      const id = await transaction(db, async (trx) => {
        await checkDoors(trx, companyId, input.device_ids);
        const now = nowIso();
        const number = await freePin(trx, companyId);
        const personId = await personsRepository.insert(
          trx,
          companyId,
          newPersonRow({
            number,
            name: input.name,
            phone: input.phone,
            description: input.reason,
            kind: VISITOR,
            valid_from: window.starts_at,
            valid_until: window.ends_at,
            created_at: now,
          }),
        );
        const visitorId = await visitorsRepository.insert(trx, {
          company_id: companyId,
          person_id: personId,
          inviter_admin_id: inviter.kind === 'admin' ? inviter.tenant.adminId : null,
          inviter_person_id: inviter.kind === 'person' ? inviter.person.personId : null,
          inviter_name: inviter.kind === 'admin' ? inviter.tenant.adminName : inviter.person.name,
          name: input.name,
          phone: input.phone,
          visitor_company: input.company,
          reason: input.reason,
          starts_at: window.starts_at,
          ends_at: window.ends_at,
          device_ids: JSON.stringify(input.device_ids),
          state: 'invited',
          token_hash: sha256(token),
          arrived_at: null,
          created_at: now,
          updated_at: now,
        });
        if (inviter.kind === 'admin')
          await audit(trx, inviter.tenant, 'person', 'person.visitorInvite', { id: visitorId, name: input.name, from: window.starts_at, to: window.ends_at });
        return visitorId;
      });
      const link = `${origin}/visit/${token}`;
      let smsSent = false;
      if (deps.sms) {
        try {
          // The SMS gateway gets the link where a sign-in gets its code (purpose 'visit' picks the text).
          await deps.sms.send(input.phone, 'visit', link);
          smsSent = true;
        } catch (err) {
          deps.log?.warn({ err }, 'visitor link SMS failed');
        }
      }
      return { visitor: await loadOne(db, companyId, id), link, sms_sent: smsSent };
    },

    /** Cancels at once: the visitor is removed from every door (an employee cancels only their own invitations). */
    async cancel(inviter: Inviter, id: number): Promise<Visitor> {
      const companyId = companyOf(inviter);
      return transaction(db, async (trx) => {
        const row = await visitorsRepository.find(trx, companyId, id);
        if (!row || (inviter.kind === 'person' && row.inviter_person_id !== inviter.person.personId)) throw notFound();
        if (OPEN.includes(row.state)) {
          await close(trx, companyId, row.id, row.person_id, 'cancelled');
          if (inviter.kind === 'admin') await audit(trx, inviter.tenant, 'person', 'person.visitorCancel', { id: row.id, name: row.name });
        }
        return loadOne(trx, companyId, id);
      });
    },

    /** The job: invitations whose window has passed end, and their visitors leave every door. */
    async endDue(): Promise<number> {
      const due = await visitorsRepository.due(db, nowIso(), END_BATCH);
      for (const v of due)
        await transaction(db, async (trx) => {
          const row = await visitorsRepository.find(trx, v.company_id, v.id);
          if (row && OPEN.includes(row.state)) await close(trx, v.company_id, v.id, v.person_id, 'ended');
        });
      return due.length;
    },

    /** The visitor's page: a wrong token is not found; an invitation that ended or was cancelled is refused. */
    async show(token: string): Promise<VisitPublic> {
      const row = await visitorsRepository.byToken(db, sha256(token));
      if (!row) throw notFound();
      if (!OPEN.includes(row.state) || Date.parse(row.ends_at) <= clock.now()) throw badInput('errors.visitClosed', 'token');
      const names = await visitorsRepository.deviceNames(db, row.company_id, parseJson<number[]>(row.device_ids, []));
      return {
        name: row.name,
        host: row.host,
        inviter: row.inviter_name,
        reason: row.reason,
        starts_at: row.starts_at,
        ends_at: row.ends_at,
        time_zone: row.time_zone,
        doors: [...names.values()],
        state: row.state as VisitPublic['state'],
        has_face: row.photo !== '',
      };
    },

    /**
     * The visitor's face (the checks of people's photos): once it is there the visitor goes to the doors of the
     * invitation; a new face replaces the old one on them.
     */
    async face(token: string, data: Buffer): Promise<VisitPublic> {
      await this.show(token);
      const jpeg = await normalizePhoto(data);
      await deps.faceCheck?.(jpeg);
      const row = (await visitorsRepository.byToken(db, sha256(token)))!;
      const name = await photos.save(row.company_id, jpeg);
      let old = '';
      try {
        await transaction(db, async (trx) => {
          const v = await visitorsRepository.find(trx, row.company_id, row.id);
          if (!v || !OPEN.includes(v.state)) throw badInput('errors.visitClosed', 'token');
          const person = (await personsRepository.find(trx, row.company_id, v.person_id))!;
          old = person.photo;
          await personsRepository.update(trx, row.company_id, person.id, { photo: name, revision: person.revision + 1, updated_at: nowIso() });
          if (v.state === 'invited') {
            // Only the doors of the invitation, and only those still letting visitors in.
            const doors = (await visitorsRepository.devices(trx, row.company_id, parseJson<number[]>(v.device_ids, []))).filter((d) => allowsVisits(d.options));
            for (const d of doors) await sync.assign(trx, row.company_id, d, [person.id]);
            await visitorsRepository.setState(trx, row.company_id, v.id, 'active', nowIso());
          } else await sync.touch(trx, row.company_id, [person.id]);
        });
      } catch (e) {
        await photos.release(row.company_id, [name]);
        throw e;
      }
      if (old) await photos.release(row.company_id, [old]);
      return this.show(token);
    },

    /**
     * Accepted punches of visitors (in the punch writer's transaction): the first tells the inviter (a message to
     * the administrator, or to the employee's self-service inbox) and the guard desk (live `visitor`).
     */
    async onPunches(trx: Executor, punches: { companyId: number; personId: number; time: string }[]) {
      const byCompany = new Map<number, Map<number, string>>();
      for (const p of punches) {
        const m = byCompany.get(p.companyId) ?? byCompany.set(p.companyId, new Map()).get(p.companyId)!;
        const prev = m.get(p.personId);
        if (!prev || p.time < prev) m.set(p.personId, p.time);
      }
      for (const [companyId, firsts] of byCompany) {
        const waiting = await visitorsRepository.notArrived(trx, companyId, [...firsts.keys()]);
        if (!waiting.length) continue;
        const zone = (await trx.selectFrom('companies').select('time_zone').where('id', '=', companyId).executeTakeFirst())?.time_zone ?? 'UTC';
        for (const v of waiting) {
          const at = firsts.get(v.person_id)!;
          if (!(await visitorsRepository.arrive(trx, companyId, v.id, at))) continue;
          const params = { name: v.name, time: localTime(at, zone) };
          if (v.inviter_admin_id !== null) await notify(trx, companyId, v.inviter_admin_id, 'visitorArrived', params);
          if (v.inviter_person_id !== null)
            await selfRepository.insertMessage(trx, companyId, {
              person_id: v.inviter_person_id,
              type: 'visitorArrived',
              params: JSON.stringify(params),
              application_id: null,
              created_at: nowIso(),
            });
          await publish(trx, companyId, 'visitor', { id: v.id, name: v.name, inviter: v.inviter_name, at }, ['person', 'log', 'face']);
        }
      }
    },

    visits: (companyId: number, f: VisitFilter & { offset: number; limit: number }, withTotal = true) => visitorsRepository.visits(db, companyId, f, withTotal),
    visit: (companyId: number, id: number) => visitorsRepository.visit(db, companyId, id),
  };
}
export type VisitorsService = ReturnType<typeof visitorsService>;

/** 'YYYY-MM-DD HH:mm' of an instant in a zone (what a message shows). */
function localTime(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  return new Date(ms + zoneOffsetMs(zone, ms)).toISOString().slice(0, 16).replace('T', ' ');
}
