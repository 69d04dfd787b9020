import type { Language } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import type { Params } from '../../i18n/i18n.ts';
import { nowIso } from '../../lib/time.ts';
import { publish } from '../live/publish.ts';
import { messagesRepository } from './messages.repository.ts';
import { presentMessage } from './messages.presenter.ts';

/**
 * Notification messages are stored as a type plus parameters and rendered in the reader's language,
 * so one message reads correctly for administrators who use different languages.
 */
export async function notify(db: Executor, companyId: number, adminId: number | null, type: string, params: Params) {
  await messagesRepository.insert(db, companyId, { admin_id: adminId, type, params: JSON.stringify(params), created_at: nowIso() });
  // the bell refetches its count (one administrator's, or everyone's for a company-wide message)
  await publish(db, companyId, 'messages', {}, [], adminId);
}

export const messagesService = {
  async list(db: Executor, lang: Language, companyId: number, adminId: number, f: { unreadOnly: boolean; offset: number; limit: number }) {
    const r = await messagesRepository.list(db, companyId, adminId, f);
    return { items: r.items.map((m) => presentMessage(lang, m)), total: r.total };
  },
  count: (db: Executor, companyId: number, adminId: number) => messagesRepository.countUnread(db, companyId, adminId),
  async read(db: Executor, companyId: number, adminId: number, ids: number[] | 'all') {
    await messagesRepository.markRead(db, companyId, adminId, ids, nowIso());
    // the reader's other tabs and screens follow
    await publish(db, companyId, 'messages', {}, [], adminId);
    return messagesRepository.countUnread(db, companyId, adminId);
  },
};
