import type { Page } from 'playwright-core';
import { api } from './api.ts';
import { axeViolations, type AxeViolation } from './axe.ts';
import { openPath } from './journey.ts';
import { loadLocale, loadServerLocale } from './locales.ts';

/** The console's languages, as the language menu stores them (apps/web/src/lib/languages.ts). */
export const LANGUAGES = ['en-US', 'zh-CN', 'zh-TW', 'ja'] as const;
export const SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 390, height: 844 } } as const;

/**
 * Every page of the console a main administrator of the demo company reaches (apps/web/src/app/routes/routeTable.ts),
 * the ones with an id filled with the demo's first device and breaker.
 */
export async function consolePages(page: Page): Promise<string[]> {
  const devices = await api<{ items: { id: number }[] }>(page, 'GET', '/device/list?pageSize=5');
  const breakers = await api<{ items: { id: number }[] }>(page, 'GET', '/breaker/list?pageSize=5');
  const device = devices.items[0]?.id;
  const breaker = breakers.items[0]?.id;
  return [
    '/dashboard',
    '/consoles',
    '/ioconsoles',
    '/ioconsoles2',
    '/dormitory',
    '/dormitory2',
    '/maininfo',
    '/fullscreen',
    '/spotconsoles',
    '/map',
    '/stranger',
    '/user/organization',
    '/user/list',
    '/user/legacy',
    '/device/list',
    ...(device ? [`/device/personManage/${device}`, `/device/roster/${device}`] : []),
    '/device/takeover',
    '/attendance/list',
    '/attendance/result',
    '/attendance/report',
    '/attendance/rule',
    '/attendance/holiday',
    '/attendance/balance',
    '/attendance/freeSchedule',
    '/attendance/health',
    '/attendance/alcohol',
    '/circuitBreaker/index',
    ...(breaker ? [`/circuitBreaker/${breaker}`] : []),
    '/workflow/index',
    '/system/log',
    '/system/list',
    '/system/manager',
    '/system/visitors',
    '/system/visitorlog',
    '/system/integrations',
    '/system/clientErrors',
    '/company/update',
    '/company/list',
    '/message/message',
  ];
}

/** Chooses the console's language as its menu does (kept in the browser), and loads the console again in it. */
export async function useLanguage(page: Page, baseUrl: string, language: string): Promise<void> {
  await page.evaluate((l) => localStorage.setItem('faceadmin.language', l), language);
  await page.goto(`${baseUrl}/dashboard`);
  await page.waitForFunction(() => document.documentElement.dataset['route'] === '/dashboard');
}

export interface PageCheck {
  /** axe-core's serious and critical WCAG 2.1 A/AA violations on the whole screen */
  violations: AxeViolation[];
  /** how far the page runs past the screen's right edge, px */
  overflow: number;
  /** titles (page, card, navigation bar, dialog, drawer) cut short on screen, by their text */
  truncated: string[];
  /** the console's own English texts on a page in another language (a key missing from the language, a string left in code) */
  untranslated: string[];
}

const FOLDER: Record<string, string> = { 'en-US': 'en-US', 'zh-CN': 'zh-CN', 'zh-TW': 'zh-TW', zh_tw: 'zh-TW', ja: 'ja' };
const englishOnly = new Map<string, string[]>();
/**
 * The English texts of the console and of the server's messages that the language says otherwise: whole words, no
 * placeholders, not also one of the language's own texts (a product name, "OK"). Shown on a page in that language,
 * they are untranslated (a string left in code, a message the server sent in English).
 */
function englishOnlyIn(language: string): string[] {
  let out = englishOnly.get(language);
  if (!out) {
    const folder = FOLDER[language] ?? language;
    const own = new Set([...loadLocale(folder).values(), ...loadServerLocale(folder).values()]);
    const english = new Set([...loadLocale('en-US').values(), ...loadServerLocale('en-US').values()]);
    out = [...english].filter((v) => !own.has(v) && !v.includes('{') && /[A-Za-z]{3,}/.test(v));
    englishOnly.set(language, out);
  }
  return out;
}

/** The titles a reader must see whole. */
const TITLES = '.ant-card-head-title, .fa-navbar-title, .ant-modal-title, .ant-drawer-title, .ant-page-header-heading-title';

/** Opens `route` inside the running console, waits for its data, and checks it: axe (serious, critical) and overflow. */
export async function checkPage(page: Page, route: string, language = 'en-US'): Promise<PageCheck> {
  await openPath(page, route);
  // its data: the loading spinners gone (or 8 s: a page that keeps one is checked as it is)
  await page
    .waitForFunction(() => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active, .fa-page-loading'), undefined, { timeout: 8000, polling: 100 })
    .catch(() => undefined);
  await page.mouse.move(0, 0);
  const violations = (await axeViolations(page, 'body')).filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const overflow = await page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
  const truncated = await page.evaluate(
    (selector) =>
      Array.from(document.querySelectorAll<HTMLElement>(selector))
        .filter((e) => e.getClientRects().length > 0 && e.scrollWidth > e.clientWidth + 1)
        .map((e) => e.innerText.trim()),
    TITLES,
  );
  // Text shown whole as one of the console's English texts (typed data, inputs and the demo's own names aside).
  const untranslated =
    language === 'en-US'
      ? []
      : await page.evaluate((english) => {
          const texts = new Set(english);
          const found = new Set<string>();
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const text = n.textContent?.trim() ?? '';
            const parent = n.parentElement;
            if (!text || !texts.has(text) || !parent || parent.closest('input, textarea, [contenteditable], .ant-select-selection-item')) continue;
            if (parent.getClientRects().length > 0) found.add(text);
          }
          return [...found];
        }, englishOnlyIn(language));
  return { violations, overflow, truncated, untranslated };
}

/** One line of a check's findings, for a failure or the walk's print-out. */
export const describeCheck = (c: PageCheck): string =>
  [
    ...c.violations.map(
      (v) => `${v.impact} ${v.id} ×${v.nodes.length}: ${v.nodes[0]?.target ?? ''} ${v.nodes[0]?.summary.replace(/\s+/g, ' ').slice(0, 200) ?? ''}`,
    ),
    ...(c.overflow ? [`overflows the screen by ${c.overflow} px`] : []),
    ...c.truncated.map((title) => `title cut short: "${title}"`),
    ...c.untranslated.map((text) => `untranslated: "${text}"`),
  ].join('\n  ');
