// The accessibility walk (issue #31): every page of the console, in each language, at desktop and phone width, on the
// demo company, checked by axe-core (WCAG 2.1 A and AA: serious and critical), for sideways overflow, for titles cut
// short and for the console's English left on a page in another language. Prints each page's findings and the totals;
// exits 1 when there are any. `npm run walk -w @faceadmin/e2e`; WALK_LANGS (en-US,zh-CN,zh-TW,ja), WALK_SIZES
// (desktop,phone) and WALK_ROUTES (paths) narrow it; WALK_JSON=file keeps every finding.
// The suite's own walk (tests/a11y.test.ts) sees every page once at each size, its languages taking turns.
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../lib/browser.ts';
import { waitForPath } from '../lib/journey.ts';
import { checkPage, consolePages, describeCheck, LANGUAGES, SIZES, useLanguage, type PageCheck } from '../lib/pages.ts';
import { startServer } from '../lib/server.ts';

const DEMO = { username: 'demo', password: 'demo123' };
const list = (v: string | undefined, all: readonly string[]) => (v ? v.split(',').map((s) => s.trim()) : [...all]);
const langs = list(process.env.WALK_LANGS, LANGUAGES);
const sizes = list(process.env.WALK_SIZES, Object.keys(SIZES)) as (keyof typeof SIZES)[];

const server = await startServer(DEMO, { DEMO: '1', DEVICE_POLL_SECONDS: '1', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
const browser = await chromium.launch(CHROMIUM);
const findings: (PageCheck & { lang: string; size: string; route: string })[] = [];
try {
  for (const size of sizes) {
    const context = await browser.newContext({ viewport: SIZES[size], reducedMotion: 'reduce', locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.baseUrl}/login`);
    await page.locator('#username').fill(DEMO.username);
    await page.locator('#password').fill(DEMO.password);
    await page.getByTestId('login-submit').click();
    await waitForPath(page, '/dashboard');
    const all = await consolePages(page);
    const routes = process.env.WALK_ROUTES ? all.filter((r) => process.env.WALK_ROUTES!.split(',').includes(r)) : all;
    for (const lang of langs) {
      await useLanguage(page, server.baseUrl, lang);
      for (const route of routes) {
        const c = await checkPage(page, route, lang).catch((e: unknown) => {
          console.log(`${size} ${lang} ${route}: not reached (${(e as Error).message.split('\n')[0]})`);
          return undefined;
        });
        if (!c) continue;
        findings.push({ ...c, lang, size, route });
        const nodes = c.violations.reduce((n, v) => n + v.nodes.length, 0);
        console.log(
          `${size.padEnd(7)} ${lang.padEnd(5)} ${route.padEnd(28)} ${String(nodes).padStart(3)}${nodes || c.overflow || c.truncated.length || c.untranslated.length ? `\n  ${describeCheck(c)}` : ''}`,
        );
      }
    }
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

const byRule = new Map<string, number>();
let total = 0;
for (const f of findings)
  for (const v of f.violations) {
    byRule.set(`${v.impact} ${v.id}`, (byRule.get(`${v.impact} ${v.id}`) ?? 0) + v.nodes.length);
    total += v.nodes.length;
  }
console.log(`\n${findings.length} pages walked; serious or critical: ${total} nodes`);
for (const [rule, n] of [...byRule].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(5)}  ${rule}`);
const overflowing = findings.filter((f) => f.overflow > 0);
console.log(
  `overflow: ${overflowing.length} pages${overflowing.length ? ` (${overflowing.map((f) => `${f.size} ${f.lang} ${f.route} ${f.overflow}px`).join('; ')})` : ''}`,
);
const cut = findings.filter((f) => f.truncated.length > 0);
console.log(
  `titles cut short: ${cut.length} pages${cut.length ? ` (${cut.map((f) => `${f.size} ${f.lang} ${f.route}: ${f.truncated.join(', ')}`).join('; ')})` : ''}`,
);
const english = findings.filter((f) => f.untranslated.length > 0);
console.log(
  `untranslated: ${english.length} pages${english.length ? ` (${english.map((f) => `${f.size} ${f.lang} ${f.route}: ${f.untranslated.join(', ')}`).join('; ')})` : ''}`,
);
if (process.env.WALK_JSON) writeFileSync(process.env.WALK_JSON, JSON.stringify(findings, null, 1));
process.exit(total > 0 || overflowing.length > 0 || cut.length > 0 || english.length > 0 ? 1 : 0);
