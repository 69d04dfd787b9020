import { randomBytes, randomUUID } from 'node:crypto';
import {
  APPROVAL_STATUS,
  INTEGRATION_LIMITS,
  WEBHOOK_EVENTS,
  type CompanyOptions,
  type DeliveryItem,
  type DeliveryQuery,
  type WebhookEvent,
  type WebhookInput,
  type WebhookItem,
  type WebhookSecret,
  type WebhookUpdate,
} from '@faceadmin/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Bus } from '../../db/bus.ts';
import type { Database, Executor } from '../../db/database.ts';
import { beforeCommit, transaction } from '../../db/transaction.ts';
import { badInput, notFound } from '../../lib/errors.ts';
import { parseJson } from '../../lib/json.ts';
import { OutboundRefused, type OutboundGuard } from '../../lib/outbound.ts';
import { clock, nowIso } from '../../lib/time.ts';
import type { Tenant } from '../../plugins/auth.ts';
import type { LiveEnvelope } from '../live/publish.ts';
import type { LiveEventType } from '@faceadmin/shared';
import { audit } from '../logs/logs.service.ts';
import { notify } from '../messages/messages.service.ts';
import { deliveriesRepository, outboxRepository, webhooksRepository, type DeliveryRow } from './integrations.repository.ts';
import { presentDelivery, presentEndpoint } from './integrations.presenter.ts';
import { signedHeaders } from './signature.ts';
import { requireThirdParty } from './third-party.ts';

/** How deliveries are made (tests and the bench shorten nothing: these are the product's numbers). */
export const WEBHOOK_TUNING = {
  /** an endpoint failing this long without one success is paused and its administrators are told */
  pauseAfterMs: 24 * 3600_000,
  /** a delivery's wait after its n-th failed attempt: 10 s, 20 s, 40 s … at most an hour */
  firstRetryMs: 10_000,
  maxRetryMs: 3600_000,
  /** a delivery gives up after this many attempts (about 12 hours of retries) */
  maxAttempts: 18,
  timeoutMs: 10_000,
  /** posts in flight at once (per instance) */
  concurrency: 32,
  /** outbox rows fanned out per statement, and statements per run */
  outboxBatch: 200,
  outboxRounds: 5,
  /** fan-out waits while this many deliveries are due and waiting for a post */
  aheadMax: 128,
  keepDays: 30,
  /** characters of a receiver's answer (or of why it failed) the delivery log keeps */
  responseMax: 200,
  /** how long an instance trusts its "who listens" cache without a change it made itself */
  cacheMs: 10_000,
};

export const retryDelay = (attempts: number, firstMs = WEBHOOK_TUNING.firstRetryMs) =>
  Math.min(firstMs * 2 ** Math.max(0, attempts - 1), WEBHOOK_TUNING.maxRetryMs);

/** The webhook events a live event type may become (what the tap is asked for before a writer builds it). */
const WEBHOOK_TYPES_OF: Partial<Record<LiveEventType, readonly WebhookEvent[]>> = {
  punch: ['punch', 'stranger'],
  day: ['day.changed'],
  approval: ['approval.decided'],
  alarm: ['alarm'],
  device: ['device.offline'],
};

/**
 * A live event as a webhook event, or null when webhooks have no such event. `order` keys the deliveries that must
 * reach a receiver in order: a terminal's punches.
 */
export function webhookEventOf(e: LiveEnvelope): { type: WebhookEvent; data: unknown; order?: string } | null {
  switch (e.type) {
    case 'punch': {
      const p = e.data as LiveEnvelope<'punch'>['data'];
      const { face_url: _face, ...data } = p;
      return { type: p.stranger ? 'stranger' : 'punch', data, order: `device:${p.device_id}` };
    }
    case 'day':
      return { type: 'day.changed', data: e.data };
    case 'approval': {
      const a = e.data as LiveEnvelope<'approval'>['data'];
      return a.status === APPROVAL_STATUS.approved || a.status === APPROVAL_STATUS.rejected ? { type: 'approval.decided', data: a } : null;
    }
    case 'alarm':
      return { type: 'alarm', data: e.data };
    case 'device': {
      const d = e.data as LiveEnvelope<'device'>['data'];
      return d.online ? null : { type: 'device.offline', data: d };
    }
    default:
      return null;
  }
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const bodyOf = (eventId: string, type: string, companyId: number, createdAt: string, data: unknown) =>
  JSON.stringify({ id: eventId, type, company_id: companyId, created_at: createdAt, data });

type OutboxRow = { company_id: number; event_id: string; type: string; data: string; created_at: string; order_key?: string };

/** The bus topic telling every instance a company's endpoints changed. */
const FORGET_TOPIC = 'webhooks.forget';

export function webhooksService(
  database: Database,
  log: FastifyBaseLogger,
  /** where receivers may be (config.outbound): checked when an endpoint is saved and at every attempt */
  outbound: OutboundGuard,
  timing: { pauseAfterMs: number; firstRetryMs: number } = { pauseAfterMs: WEBHOOK_TUNING.pauseAfterMs, firstRetryMs: WEBHOOK_TUNING.firstRetryMs },
  bus?: Bus,
) {
  const { db } = database;
  /** Per company: the event types an active endpoint listens to (thirdParty on), and until when that is trusted. */
  const listening = new Map<number, { types: Set<string>; on: boolean; until: number }>();
  /**
   * Endpoints changed: every instance (each keeps its own `listening`) reads them again, at the commit of `ex`, so an
   * endpoint added on one instance gets the events the others take from the next one on.
   */
  /** Bumped at every forget: a read that began before it is not kept (it may predate the change). */
  let generation = 0;
  const drop = (companyId: number) => {
    generation++;
    listening.delete(companyId);
  };
  const forget = async (ex: Executor, companyId: number) => {
    drop(companyId);
    await bus?.send(ex, FORGET_TOPIC, companyId);
  };
  bus?.on(FORGET_TOPIC, (companyId) => drop(companyId as number));
  // Notices may have been missed while the bus reconnected: everything is read again.
  bus?.onResync(() => {
    generation++;
    listening.clear();
  });
  /** Outbox rows of a transaction, written in one statement at its end (a group commit of punches makes many). */
  const pending = new WeakMap<Executor, OutboxRow[]>();
  const inFlight = new Set<Promise<unknown>>();
  const stopping = new AbortController();
  /** the fill under way (see fill()) */
  let filling: Promise<number> | null = null;
  async function queue(ex: Executor, row: OutboxRow) {
    const rows = pending.get(ex);
    if (rows) return void rows.push(row);
    const fresh = [row];
    if (!beforeCommit(ex, () => outboxRepository.insert(ex, fresh))) return outboxRepository.insert(ex, [row]);
    pending.set(ex, fresh);
  }

  async function typesOf(ex: Executor, companyId: number): Promise<Set<string>> {
    const hit = listening.get(companyId);
    if (hit && hit.until > Date.now()) return hit.types;
    const readAt = generation;
    const types = new Set<string>();
    const company = await webhooksRepository.companyOptions(ex, companyId);
    const on = !!company && !!parseJson<Partial<CompanyOptions>>(company.options, {}).thirdParty;
    if (on) for (const e of await webhooksRepository.active(ex, companyId)) for (const t of parseJson<string[]>(e.events, [])) types.add(t);
    if (readAt === generation) listening.set(companyId, { types, on, until: Date.now() + WEBHOOK_TUNING.cacheMs });
    return types;
  }

  async function endpointOf(tenant: Tenant, id: number) {
    await requireThirdParty(db, tenant.companyId);
    const row = await webhooksRepository.find(db, tenant.companyId, id);
    if (!row) throw notFound();
    return row;
  }

  async function changed<T>(tenant: Tenant, fn: (trx: Executor) => Promise<T>): Promise<T> {
    try {
      return await transaction(db, fn);
    } finally {
      await forget(db, tenant.companyId).catch((err: unknown) => log.error({ err }, 'telling instances of webhook changes failed'));
    }
  }

  /** One attempt of one delivery; records its answer and moves the endpoint's failing state. */
  async function attempt(
    d: DeliveryRow & { url: string; secret: string; endpoint_name: string; endpoint_status: string; failing_since: string | null },
    signal: AbortSignal,
  ) {
    const started = performance.now();
    const ts = Math.floor(clock.now() / 1000);
    let code: number | null = null;
    let body = '';
    const timeout = AbortSignal.timeout(WEBHOOK_TUNING.timeoutMs);
    try {
      const res = await outbound.post(d.url, {
        headers: signedHeaders(d.secret, ts, d.payload, d.event_id, d.type),
        body: d.payload,
        signal: AbortSignal.any([signal, timeout]),
        excerptMax: WEBHOOK_TUNING.responseMax,
      });
      code = res.status;
      body = res.excerpt;
    } catch (err) {
      const e = err as Error & { code?: string };
      // a refused address records only why: nothing was sent, and nothing of it is read
      body =
        err instanceof OutboundRefused ? e.message : timeout.aborted ? `timeout after ${WEBHOOK_TUNING.timeoutMs} ms` : `${e.code ?? e.name}: ${e.message}`;
      body = body.slice(0, WEBHOOK_TUNING.responseMax);
    }
    const duration = Math.round(performance.now() - started);
    const ok = code !== null && code >= 200 && code < 300;
    const attempts = d.attempts + 1;
    const now = clock.now();
    const at = new Date(now).toISOString();
    await transaction(db, async (trx) => {
      await deliveriesRepository.update(trx, d.id, {
        attempts,
        status: ok ? 'succeeded' : attempts >= WEBHOOK_TUNING.maxAttempts ? 'failed' : 'pending',
        next_attempt_at: ok ? null : new Date(now + retryDelay(attempts, timing.firstRetryMs)).toISOString(),
        last_attempt_at: at,
        response_code: code,
        response_body: body,
        duration_ms: duration,
      });
      const ep = await webhooksRepository.find(trx, d.company_id, d.endpoint_id);
      if (!ep) return;
      if (ok) {
        if (ep.failing_since) await webhooksRepository.update(trx, d.company_id, ep.id, { failing_since: null });
        return;
      }
      const since = ep.failing_since ?? at;
      if (!ep.failing_since) await webhooksRepository.update(trx, d.company_id, ep.id, { failing_since: since });
      if (ep.status === 'active' && now - Date.parse(since) >= timing.pauseAfterMs) {
        await webhooksRepository.update(trx, d.company_id, ep.id, { status: 'paused', paused_at: at, updated_at: at });
        // the company's administrators (company-wide message): the endpoint stops until one of them resumes it
        await notify(trx, d.company_id, null, 'webhookPaused', { name: ep.name, url: ep.url });
        await forget(trx, d.company_id);
      }
    });
  }

  return {
    /** Written by every publish() in the causing transaction: one outbox row when an active endpoint listens. */
    async tap(ex: Executor, e: LiveEnvelope) {
      const ev = webhookEventOf(e);
      if (!ev) return;
      if (!(await typesOf(ex, e.companyId)).has(ev.type)) return;
      await queue(ex, {
        company_id: e.companyId,
        event_id: randomUUID(),
        type: ev.type,
        data: JSON.stringify(ev.data),
        created_at: nowIso(),
        order_key: ev.order ?? '',
      });
    },
    /** Whether an endpoint of the company listens to what a live event of this type may become (cached). */
    async wants(ex: Executor, companyId: number, type: LiveEventType): Promise<boolean> {
      const types = WEBHOOK_TYPES_OF[type];
      if (!types) return false;
      const listened = await typesOf(ex, companyId);
      return types.some((t) => listened.has(t));
    },
    /** Whether the company's changes are recorded for the changes feed: its third-party option is on (cached). */
    async recording(ex: Executor, companyId: number): Promise<boolean> {
      await typesOf(ex, companyId);
      return listening.get(companyId)?.on ?? false;
    },
    /** A person changed (the persons module's hook): `person.changed` with the ids and what happened. */
    async peopleChanged(ex: Executor, e: { companyId: number; personIds: number[]; kind: 'saved' | 'deleted' }) {
      if (!(await typesOf(ex, e.companyId)).has('person.changed')) return;
      await queue(ex, {
        company_id: e.companyId,
        event_id: randomUUID(),
        type: 'person.changed',
        data: JSON.stringify({ person_ids: e.personIds.slice(0, 1000), kind: e.kind }),
        created_at: nowIso(),
      });
    },

    async list(tenant: Tenant): Promise<{ items: WebhookItem[]; total: number }> {
      await requireThirdParty(db, tenant.companyId);
      const rows = await webhooksRepository.list(db, tenant.companyId);
      return { items: rows.map(presentEndpoint), total: rows.length };
    },
    async create(tenant: Tenant, input: WebhookInput): Promise<WebhookSecret> {
      await requireThirdParty(db, tenant.companyId);
      const url = await outbound.checkUrl(input.url, 'url');
      return changed(tenant, async (trx) => {
        if ((await webhooksRepository.count(trx, tenant.companyId)) >= INTEGRATION_LIMITS.endpointsPerCompany)
          throw badInput('errors.integrationLimit', undefined, { max: INTEGRATION_LIMITS.endpointsPerCompany });
        const secret = newSecret();
        const at = nowIso();
        const events = WEBHOOK_EVENTS.filter((x) => input.events.includes(x));
        const id = await webhooksRepository.insert(trx, tenant.companyId, {
          name: input.name.trim(),
          url,
          events: JSON.stringify(events),
          secret,
          status: 'active',
          created_at: at,
          updated_at: at,
        });
        await audit(trx, tenant, 'integration', 'integration.webhook.create', { name: input.name.trim(), url });
        return { ...presentEndpoint((await webhooksRepository.find(trx, tenant.companyId, id))!), secret };
      });
    },
    async update(tenant: Tenant, input: WebhookUpdate): Promise<WebhookItem> {
      await endpointOf(tenant, input.id);
      const url = await outbound.checkUrl(input.url, 'url');
      return changed(tenant, async (trx) => {
        const events = WEBHOOK_EVENTS.filter((x) => input.events.includes(x));
        await webhooksRepository.update(trx, tenant.companyId, input.id, {
          name: input.name.trim(),
          url,
          events: JSON.stringify(events),
          updated_at: nowIso(),
        });
        await audit(trx, tenant, 'integration', 'integration.webhook.update', { name: input.name.trim(), url });
        return presentEndpoint((await webhooksRepository.find(trx, tenant.companyId, input.id))!);
      });
    },
    async remove(tenant: Tenant, id: number): Promise<void> {
      const row = await endpointOf(tenant, id);
      await changed(tenant, async (trx) => {
        await webhooksRepository.delete(trx, tenant.companyId, id);
        await audit(trx, tenant, 'integration', 'integration.webhook.delete', { name: row.name, url: row.url });
      });
    },
    async rotate(tenant: Tenant, id: number): Promise<WebhookSecret> {
      const row = await endpointOf(tenant, id);
      return changed(tenant, async (trx) => {
        const secret = newSecret();
        await webhooksRepository.update(trx, tenant.companyId, id, { secret, updated_at: nowIso() });
        await audit(trx, tenant, 'integration', 'integration.webhook.secret', { name: row.name });
        return { ...presentEndpoint((await webhooksRepository.find(trx, tenant.companyId, id))!), secret };
      });
    },
    async resume(tenant: Tenant, id: number): Promise<WebhookItem> {
      const row = await endpointOf(tenant, id);
      return changed(tenant, async (trx) => {
        if (row.status !== 'active') {
          // a fresh day of grace; deliveries still pending go out again from now on
          await webhooksRepository.update(trx, tenant.companyId, id, { status: 'active', paused_at: null, failing_since: null, updated_at: nowIso() });
          await audit(trx, tenant, 'integration', 'integration.webhook.resume', { name: row.name });
        }
        return presentEndpoint((await webhooksRepository.find(trx, tenant.companyId, id))!);
      });
    },
    /** "Send a test event": one `test` delivery to this endpoint, made by the next run of the job. */
    async test(tenant: Tenant, id: number): Promise<DeliveryItem> {
      const row = await endpointOf(tenant, id);
      return transaction(db, async (trx) => {
        const eventId = randomUUID();
        const at = nowIso();
        const payload = bodyOf(eventId, 'test', tenant.companyId, at, { endpoint_id: row.id, name: row.name, sent_by: tenant.adminName });
        const [did] = await deliveriesRepository.insert(trx, [
          {
            company_id: tenant.companyId,
            endpoint_id: row.id,
            event_id: eventId,
            type: 'test',
            payload,
            status: 'pending',
            next_attempt_at: at,
            created_at: at,
          },
        ]);
        await audit(trx, tenant, 'integration', 'integration.webhook.test', { name: row.name });
        return presentDelivery((await deliveriesRepository.find(trx, tenant.companyId, did!))!);
      });
    },
    /** "Redeliver": the same event (same id and body, signed afresh) as a new delivery. */
    async redeliver(tenant: Tenant, id: number): Promise<DeliveryItem> {
      await requireThirdParty(db, tenant.companyId);
      const d = await deliveriesRepository.find(db, tenant.companyId, id);
      if (!d) throw notFound();
      return transaction(db, async (trx) => {
        const at = nowIso();
        const [did] = await deliveriesRepository.insert(trx, [
          {
            company_id: tenant.companyId,
            endpoint_id: d.endpoint_id,
            event_id: d.event_id,
            type: d.type,
            payload: d.payload,
            status: 'pending',
            next_attempt_at: at,
            created_at: at,
          },
        ]);
        await audit(trx, tenant, 'integration', 'integration.webhook.redeliver', { event: d.event_id });
        return presentDelivery((await deliveriesRepository.find(trx, tenant.companyId, did!))!);
      });
    },
    async deliveries(tenant: Tenant, q: DeliveryQuery, offset: number, limit: number) {
      await endpointOf(tenant, q.endpoint_id);
      const r = await deliveriesRepository.page(db, tenant.companyId, q.endpoint_id, q.status, offset, limit);
      return { items: r.items.map(presentDelivery), total: r.total };
    },

    /**
     * The job (every second, one instance at a time): fan the outbox out into deliveries, then start due ones up to
     * the concurrency bound; each finished post starts the next due one at once (posts run beside the ticks, so a
     * receiver answering in 2 s holds none). Fan-out stops while enough deliveries already wait for a post: events
     * then wait in the outbox (one small row each) instead of being copied per endpoint faster than receivers take
     * them, which keeps the background writes bounded by what the receivers absorb.
     */
    async work(signal: AbortSignal): Promise<{ fanned: number; started: number }> {
      let fanned = 0;
      for (let i = 0; i < WEBHOOK_TUNING.outboxRounds && !signal.aborted; i++) {
        if ((await deliveriesRepository.dueCount(db, nowIso(), WEBHOOK_TUNING.aheadMax)) >= WEBHOOK_TUNING.aheadMax) break;
        const n = await fanOut();
        fanned += n.rows;
        if (n.rows < WEBHOOK_TUNING.outboxBatch) break;
      }
      return { fanned, started: signal.aborted ? 0 : await fill() };
    },
    /** Resolves once no post is in flight or about to start (tests; the module's close). */
    async idle() {
      while (inFlight.size || filling) await Promise.all([...inFlight, filling]);
    },
    async close() {
      stopping.abort();
      await this.idle();
    },
    async cleanup() {
      const before = new Date(clock.now() - WEBHOOK_TUNING.keepDays * 86400_000).toISOString();
      await deliveriesRepository.prune(db, before);
    },
  };

  /** Claims due deliveries for the free slots and starts their posts (one fill at a time per instance). */
  function fill(): Promise<number> {
    if (filling) return filling;
    const run = (async () => {
      const free = WEBHOOK_TUNING.concurrency - inFlight.size;
      if (free <= 0 || stopping.signal.aborted) return 0;
      const now = clock.now();
      const due = await deliveriesRepository.due(db, new Date(now).toISOString(), free);
      let started = 0;
      for (const d of due) {
        // the claim: its next attempt moves past the post's timeout, so no other tick or instance takes it meanwhile
        const lease = new Date(now + WEBHOOK_TUNING.timeoutMs + 5000).toISOString();
        if (!(await deliveriesRepository.claim(db, d.id, d.next_attempt_at, lease))) continue;
        started++;
        const p: Promise<unknown> = attempt(d, stopping.signal)
          .catch((err: unknown) => log.error({ err, delivery: d.id }, 'webhook delivery could not be recorded'))
          .finally(() => {
            inFlight.delete(p);
            if (!stopping.signal.aborted) void fill().catch((err: unknown) => log.error({ err }, 'webhook deliveries could not be started'));
          });
        inFlight.add(p);
      }
      return started;
    })();
    // cleared once settled (also when it ended without awaiting anything: set first, cleared after)
    filling = run;
    const clear = () => {
      if (filling === run) filling = null;
    };
    run.then(clear, clear);
    return run;
  }

  async function fanOut(): Promise<{ rows: number; made: number }> {
    const rows = await outboxRepository.take(db, WEBHOOK_TUNING.outboxBatch);
    if (!rows.length) return { rows: 0, made: 0 };
    let made = 0;
    await transaction(db, async (trx) => {
      const byCompany = new Map<number, { id: number; events: string[] }[]>();
      for (const r of rows) {
        if (!byCompany.has(r.company_id)) {
          const company = await webhooksRepository.companyOptions(trx, r.company_id);
          const on = company && parseJson<Partial<CompanyOptions>>(company.options, {}).thirdParty;
          byCompany.set(
            r.company_id,
            on ? (await webhooksRepository.active(trx, r.company_id)).map((e) => ({ id: e.id, events: parseJson<string[]>(e.events, []) })) : [],
          );
        }
      }
      const deliveries = rows.flatMap((r) =>
        byCompany
          .get(r.company_id)!
          .filter((e) => e.events.includes(r.type))
          .map((e) => ({
            company_id: r.company_id,
            endpoint_id: e.id,
            event_id: r.event_id,
            type: r.type,
            payload: bodyOf(r.event_id, r.type, r.company_id, r.created_at, parseJson<unknown>(r.data, null)),
            status: 'pending',
            next_attempt_at: r.created_at,
            created_at: r.created_at,
            order_key: r.order_key,
          })),
      );
      for (let i = 0; i < deliveries.length; i += 100) made += (await deliveriesRepository.insert(trx, deliveries.slice(i, i + 100))).length;
      await outboxRepository.remove(
        trx,
        rows.map((r) => r.id),
      );
    });
    return { rows: rows.length, made };
  }
}
export type WebhooksService = ReturnType<typeof webhooksService>;
