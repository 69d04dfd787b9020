// Browser journey of issue #31: every page of the console, on the demo company (real server, its emulated terminals
// and breakers), at desktop and at phone width, the languages taking turns (a quarter of the pages each, shifted by
// two between the sizes): axe-core finds nothing serious or critical (WCAG 2.1 A and AA) and nothing is wider than the
// screen, no title is cut short, and none of the console's own English shows on a page in another language. `npm run
// walk -w @faceadmin/e2e` checks every page in every language at both sizes (scripts/walk.ts).
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { journeySteps, openJourney, type Journey } from '../lib/browser.ts';
import { axeViolations } from '../lib/axe.ts';
import { waitForPath } from '../lib/journey.ts';
import { checkPage, consolePages, describeCheck, LANGUAGES, SIZES, useLanguage } from '../lib/pages.ts';
import { startServer, type RunningServer } from '../lib/server.ts';

// The demo company's administrator (apps/server/src/demo/seed-demo.ts); no other administrator is made.
const DEMO = { username: 'demo', password: 'demo123' };

let server: RunningServer;
let journey: Journey;
const step = journeySteps(() => journey);
let page: Page;

before(async () => {
  server = await startServer(DEMO, { DEMO: '1', DEVICE_POLL_SECONDS: '1', ADMIN_USERNAME: '', ADMIN_PASSWORD: '' });
  journey = await openJourney({ prefix: 'a11y-', viewport: SIZES.desktop });
  page = journey.page;
});

after(async () => {
  await journey?.close();
  await server?.stop();
});

step(
  'the sign-in page (drawn without antd), in each language at both sizes, refused and with the language list open: no serious or critical axe finding, nothing wider than the screen',
  async () => {
    const problems: string[] = [];
    for (const size of ['desktop', 'phone'] as const) {
      await page.setViewportSize(SIZES[size]);
      for (const language of LANGUAGES) {
        await page.goto(`${server.baseUrl}/login`);
        await page.evaluate((l) => localStorage.setItem('faceadmin.language', l), language);
        await page.reload();
        await page.getByTestId('login-form').waitFor();
        // a refused attempt shows a field's message and the server's refusal (an unknown account each time: one failure
        // each, far from the sign-in protection's limits, and the demo's own account untouched)
        await page.locator('#username').fill(`nobody-${size}-${language}`);
        await page.locator('#password').fill('wrong-password');
        await page.getByTestId('login-submit').click();
        await page.getByTestId('login-error').waitFor();
        await page.locator('#password').fill('12');
        await page.getByTestId('language-select').click();
        await page.locator('[data-lang]').first().waitFor();
        const serious = (await axeViolations(page, 'body')).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const overflow = await page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));
        if (serious.length || overflow) problems.push(`${language} ${size}: ${JSON.stringify(serious)} overflow ${overflow} px`);
      }
    }
    await page.setViewportSize(SIZES.desktop);
    await page.evaluate(() => localStorage.removeItem('faceadmin.language'));
    assert.deepEqual(problems, []);
  },
);

step('sign in to the demo company', async () => {
  await page.goto(`${server.baseUrl}/login`);
  await page.locator('#username').fill(DEMO.username);
  await page.locator('#password').fill(DEMO.password);
  await page.getByTestId('login-submit').click();
  await waitForPath(page, '/dashboard');
});

for (const [n, size] of (['desktop', 'phone'] as const).entries()) {
  step(
    `every page at ${size} width (${SIZES[size].width} px), in each language in turn: no serious or critical axe finding, nothing wider than the screen, none of the console's English on a page in another language`,
    async () => {
      await page.setViewportSize(SIZES[size]);
      const routes = await consolePages(page);
      const quarter = Math.ceil(routes.length / LANGUAGES.length);
      const problems: string[] = [];
      let language = '';
      for (const [i, route] of routes.entries()) {
        if (i % quarter === 0) {
          language = LANGUAGES[(i / quarter + 2 * n) % LANGUAGES.length]!;
          await useLanguage(page, server.baseUrl, language);
        }
        const c = await checkPage(page, route, language);
        if (c.violations.length || c.overflow || c.truncated.length || c.untranslated.length) problems.push(`${language} ${route}:\n  ${describeCheck(c)}`);
      }
      assert.equal(problems.length, 0, problems.join('\n'));
    },
  );
}

step('no uncaught errors in the page', () => {
  assert.deepEqual(journey.pageErrors, []);
});
