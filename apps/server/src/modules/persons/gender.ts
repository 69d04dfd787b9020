import type { Gender, Language } from '@faceadmin/shared';
import { CATALOGS, t } from '../../i18n/i18n.ts';

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, '');

/** How files write a gender, beyond our own translated values (values.male / values.female). */
const WRITTEN: Record<Gender, string[]> = {
  male: ['m', 'male', 'man', '男', '男性', '男子'],
  female: ['f', 'female', 'woman', '女', '女性', '女子'],
};
/**
 * Written for "not said", or for what the field cannot hold (other, withheld): the person has no gender on record, and
 * the row is kept (an old system's employee is not lost over it).
 */
const UNSAID = ['', 'unknown', 'u', '-', 'other', 'o', 'x', '未知', '不明', '未設定', '未设置', '保密', '其他', '不详', '不詳', 'その他', '無回答'];

let known: Map<string, Gender | null> | undefined;

/**
 * A gender as a spreadsheet or an old system's export writes it (English, Chinese, Japanese, M/F): 'male' or 'female',
 * null when the cell says nothing (or "unknown"), undefined when it is not a gender at all (the row's error).
 */
export function genderOf(text: string): Gender | null | undefined {
  if (!known) {
    known = new Map<string, Gender | null>(UNSAID.map((w) => [w, null]));
    for (const g of ['male', 'female'] as const) {
      for (const w of WRITTEN[g]) known.set(w, g);
      for (const lang of Object.keys(CATALOGS) as Language[]) known.set(norm(t(lang, `values.${g}`)), g);
    }
  }
  return known.get(norm(text));
}
