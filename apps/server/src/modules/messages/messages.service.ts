import type { Language, MessageItem } from '@faceadmin/shared';
import type { Executor } from '../../db/database.ts';
import { t, type Params } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';
import { nowIso } from '../../lib/time.ts';
import { messagesRepository } from './messages.repository.ts';

/**
 * Notification messages are stored as a type plus parameters and rendered in the reader's language,
 * so one message reads correctly for administrators who use different languages.
 */
export async function notify(db: Executor, companyId: number, adminId: number | null, type: string, params: Params) {
  await messagesRepository.insert(db, companyId, { admin_id: adminId, type, params: JSON.stringify(params), created_at: nowIso() });
}

export function presentMessage(lang: Language, row: { id: number; type: string; params: string; created_at: string; is_read: unknown }): MessageItem {
  const params = parseJson<Params>(row.params, {});
  // Parts that are themselves texts (a setting's name, a device's answer) are stored as keys, read in the reader's language.
  if (typeof params.settingKey === 'string') params.setting = t(lang, params.settingKey);
  if (typeof params.reasonKey === 'string') params.reason = t(lang, params.reasonKey, params);
  return {
    id: row.id,
    type: row.type,
    title: t(lang, `messages.${row.type}.title`, params),
    content: t(lang, `messages.${row.type}.content`, params),
    read: Boolean(Number(row.is_read)),
    created_at: row.created_at,
  };
}

export const messagesService = {
  async list(db: Executor, lang: Language, companyId: number, adminId: number, f: { unreadOnly: boolean; offset: number; limit: number }) {
    const r = await messagesRepository.list(db, companyId, adminId, f);
    return { items: r.items.map((m) => presentMessage(lang, m)), total: r.total };
  },
  count: (db: Executor, companyId: number, adminId: number) => messagesRepository.countUnread(db, companyId, adminId),
  async read(db: Executor, companyId: number, adminId: number, ids: number[] | 'all') {
    await messagesRepository.markRead(db, companyId, adminId, ids, nowIso());
    return messagesRepository.countUnread(db, companyId, adminId);
  },
};
