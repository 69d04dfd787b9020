/** Languages as the API names them (X-Lang, spec §1). */
export const LANGUAGES = ['zh-CN', 'zh_tw', 'en-US', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** Accepts the spec's spellings and common browser variants; anything else is undefined. */
export function normalizeLanguage(input: string | null | undefined): Language | undefined {
  if (!input) return undefined;
  const v = input.trim().toLowerCase().replace('_', '-');
  if (v === 'zh-cn' || v === 'zh' || v === 'zh-hans' || v === 'zh-sg' || v.startsWith('zh-hans')) return 'zh-CN';
  if (v === 'zh-tw' || v === 'zh-hk' || v === 'zh-mo' || v === 'zh-hant' || v.startsWith('zh-hant')) return 'zh_tw';
  if (v === 'en' || v.startsWith('en-')) return 'en-US';
  if (v === 'ja' || v.startsWith('ja-')) return 'ja';
  return undefined;
}
