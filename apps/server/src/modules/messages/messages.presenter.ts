import type { Language, MessageItem } from '@faceadmin/shared';
import { t, type Params } from '../../i18n/i18n.ts';
import { parseJson } from '../../lib/json.ts';

export function presentMessage(lang: Language, row: { id: number; type: string; params: string; created_at: string; is_read: unknown }): MessageItem {
  const params = parseJson<Params>(row.params, {});
  // Parts that are themselves texts (a setting's name, a device's answer) are stored as keys, read in the reader's language.
  if (typeof params.settingKey === 'string') params.setting = t(lang, params.settingKey);
  if (typeof params.reasonKey === 'string') params.reason = t(lang, params.reasonKey, params);
  if (typeof params.appKey === 'string') params.app = t(lang, params.appKey);
  return {
    id: row.id,
    type: row.type,
    title: t(lang, `messages.${row.type}.title`, params),
    content: t(lang, `messages.${row.type}.content`, params),
    read: Boolean(Number(row.is_read)),
    created_at: row.created_at,
    link: linkOf(row.type, params),
  };
}

/** Where a message is acted on: users enrolled at a terminal are reviewed on its take-over page, among those not managed. */
function linkOf(type: string, params: Params): string {
  if (type === 'deviceEnrolled' && typeof params.deviceId === 'number') return `/device/roster/${params.deviceId}?show=unmanaged`;
  return '';
}
