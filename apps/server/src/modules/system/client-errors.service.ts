import { createHash } from 'node:crypto';
import { CLIENT_ERROR_LIMITS as L, type ClientErrorDelete, type ClientErrorReport } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { transaction } from '../../db/transaction.ts';
import { clock, nowIso } from '../../lib/time.ts';
import { addressKey } from '../../lib/throttle.ts';
import type { Tenant } from '../../plugins/auth.ts';
import { audit } from '../logs/logs.service.ts';
import { clientErrorsRepository as repo } from './client-errors.repository.ts';
import { presentClientError } from './client-errors.presenter.ts';

const DAY_MS = 86_400_000;
const USER_AGENT_MAX = 400;

/** The first line of a stack that names a place in the code (Chrome `    at f (url:1:2)`, Firefox/Safari `f@url:1:2`). */
export function topFrame(stack: string): string {
  for (const line of stack.split('\n')) {
    const l = line.trim();
    if (/^at\s/.test(l) || /@\S+:\d+/.test(l)) return l;
  }
  return '';
}

/** Same message thrown at the same place: one entry, whatever the page, the build's query string or the browser. */
export function fingerprintOf(r: Pick<ClientErrorReport, 'kind' | 'message' | 'stack' | 'component_stack'>): string {
  const frame = topFrame(r.stack ?? '') || (r.component_stack ?? '').trim().split('\n')[0]?.trim() || '';
  return createHash('sha256').update(`${r.message.trim()}\n${frame}`).digest('hex').slice(0, 32);
}

/** Who reported: the session's company when signed in with one; its session or else its address counts the quota. */
export interface Reporter {
  companyId: number;
  sessionId: number | null;
  ip: string;
}

export function clientErrorsService(db: Executor) {
  return {
    /** Stores one report unless the reporter's quota for the window is spent (then answers stored: false). */
    async report(who: Reporter, r: ClientErrorReport, userAgent: string): Promise<{ stored: boolean }> {
      const key = who.sessionId !== null ? `s:${who.sessionId}` : `a:${addressKey(who.ip)}`;
      const slot = Math.floor(clock.now() / L.windowMs);
      return transaction(db, async (trx) => {
        if ((await repo.spend(trx, key, slot)) > L.perWindow) return { stored: false };
        await repo.record(
          trx,
          who.companyId,
          {
            fingerprint: fingerprintOf(r),
            kind: r.kind,
            message: r.message,
            stack: r.stack ?? '',
            component_stack: r.component_stack ?? '',
            url: r.url,
            release: r.release ?? '',
            user_agent: userAgent.slice(0, USER_AGENT_MAX),
          },
          nowIso(),
        );
        return { stored: true };
      });
    },

    async list(companyId: number, offset: number, limit: number) {
      const { items, total } = await repo.list(db, companyId, offset, limit);
      return { items: items.map(presentClientError), total };
    },

    /** Deletes entries the company sees; what was deleted goes to its operation log. */
    async remove(tenant: Tenant, body: ClientErrorDelete) {
      const ids = [...new Set(body.ids)];
      return transaction(db, async (trx) => {
        const deleted = await repo.remove(trx, tenant.companyId, ids);
        if (deleted) await audit(trx, tenant, 'system', 'system.clientErrors.delete', { count: deleted, ids });
        return { deleted };
      });
    },

    /** The cleanup job: entries not seen for 30 days, quotas of past windows. */
    async prune(): Promise<number> {
      const now = clock.now();
      return repo.prune(db, new Date(now - L.keepDays * DAY_MS).toISOString(), Math.floor(now / L.windowMs));
    },
  };
}
