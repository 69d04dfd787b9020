import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';

/** Where the journeys' screenshots go (e2e/screenshots). */
export const SHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

/**
 * Whether the journeys keep their screenshots: yes when run by hand, not under `npm test` (scripts/test.ts sets
 * E2E_SCREENSHOTS=0), where nobody looks at them and their ~190 captures cost about 95 s of the browser's CPU. A failed
 * step's screenshot is taken either way.
 */
export const KEEP_SHOTS = process.env.E2E_SCREENSHOTS !== '0';

/** Saves screenshots/<name>.png of the page (the viewport unless `fullPage`), when the run keeps screenshots. */
export async function shoot(page: Page, name: string, fullPage = false): Promise<void> {
  if (KEEP_SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

export interface Journey {
  browser: Browser;
  page: Page;
  /** Messages of uncaught errors thrown in the page, in order. */
  pageErrors: string[];
  /** Saves screenshots/<prefix><name>.png (the whole page unless `fullPage` is false), when the run keeps them (KEEP_SHOTS). */
  screenshot(name: string, fullPage?: boolean): Promise<void>;
  /** What the page shows that explains a failed step (path, open dialogs, form errors, messages); screenshots it too. */
  seen(step: string): Promise<string>;
  /** Takes screenshots/<prefix>zz-final.png (best effort, when the run keeps them), then closes the browser. */
  close(): Promise<void>;
}

/**
 * How the journeys start Chromium: Debian's headless build (chromium-headless-shell: the same engine without the
 * browser's window machinery; a journey's browser costs about 30% less CPU than with the full /usr/bin/chromium, which
 * is the fallback) or CHROMIUM_PATH, headless, without what a test has no use for.
 */
export const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium'),
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
};

/** Debian Chromium (or CHROMIUM_PATH) with one page, its default timeout at 15 s and its uncaught errors collected. */
export async function openJourney(opts: {
  prefix: string;
  viewport: { width: number; height: number };
  acceptDownloads?: boolean;
  locale?: string;
}): Promise<Journey> {
  mkdirSync(SHOTS, { recursive: true });
  // The journeys' runner starts one Chromium for them all (e2e/scripts/run.ts): each journey connects to it and works
  // in contexts of its own, so no journey pays a browser's start. Run alone, a journey launches its own.
  const shared = process.env.E2E_BROWSER_WS;
  const browser = shared ? await chromium.connect(shared) : await chromium.launch(CHROMIUM);
  let page: Page;
  let context: BrowserContext;
  try {
    context = await browser.newContext({
      viewport: opts.viewport,
      locale: opts.locale ?? 'en-US',
      // Every context of the journeys prefers reduced motion, so the console opens dialogs and menus without animating
      // them: a click never lands beside a button still zooming in (that once left the sign-out confirmation open).
      reducedMotion: 'reduce',
      ...(opts.acceptDownloads !== undefined ? { acceptDownloads: opts.acceptDownloads } : {}),
    });
    page = await context.newPage();
  } catch (e) {
    await browser.close();
    throw e;
  }
  page.setDefaultTimeout(15_000);
  // Replaying a loaded CI machine or a slow network here: E2E_CPU_THROTTLE=4 runs the page four times
  // slower, E2E_LATENCY_MS=250 delays every request by that much.
  const throttle = Number(process.env.E2E_CPU_THROTTLE ?? 1);
  const latency = Number(process.env.E2E_LATENCY_MS ?? 0);
  if (throttle > 1 || latency > 0) {
    const cdp = await context.newCDPSession(page);
    if (throttle > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    if (latency > 0) {
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput: -1, uploadThroughput: -1 });
    }
  }
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return {
    browser,
    page,
    pageErrors,
    async screenshot(name, fullPage = true) {
      await shoot(page, `${opts.prefix}${name}`, fullPage);
    },
    async seen(step) {
      const file = `${opts.prefix}failed-${step.replace(/[^\w]+/g, '-').slice(0, 60)}.png`;
      await page.screenshot({ path: path.join(SHOTS, file), fullPage: true }).catch(() => undefined);
      return page.evaluate(() => {
        const shown = (selector: string) =>
          Array.from(document.querySelectorAll<HTMLElement>(selector))
            .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
            .map((e) => e.innerText.replace(/\s+/g, ' ').trim().slice(0, 160))
            .filter(Boolean);
        return JSON.stringify({
          path: location.pathname + location.search,
          dialogs: shown('.ant-modal-title, .ant-modal-confirm-title, .ant-drawer-title'),
          formErrors: shown('.ant-form-item-explain-error'),
          messages: shown('.ant-message-notice, .ant-notification-notice'),
        });
      });
    },
    async close() {
      await shoot(page, `${opts.prefix}zz-final`).catch(() => undefined);
      // connected to the shared browser, close() ends this journey's contexts and the connection, not the browser
      await browser.close();
    },
  };
}

/** A download's bytes: saved to a temp file first, since a journey connected to the shared browser has no path to read. */
export async function downloaded(download: Download): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'e2e-download-'));
  try {
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A phone (390 × 844, touch) in the journey's browser, beside its page; its uncaught errors join the page's. */
export async function openPhone(journey: Journey): Promise<{ context: BrowserContext; page: Page }> {
  const context = await journey.browser.newContext({
    viewport: { width: 390, height: 844 },
    locale: 'en-US',
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'reduce',
    deviceScaleFactor: 2,
  });
  const p = await context.newPage();
  p.setDefaultTimeout(15_000);
  p.on('pageerror', (err) => journey.pageErrors.push(err.message));
  return { context, page: p };
}

/**
 * A journey's steps, run in order: each builds on the ones before it, so after a failed step the rest are
 * skipped (their failures would only echo it) and the failure carries what the page showed at that moment.
 */
export function journeySteps(journey: () => Journey | undefined) {
  let failed: string | undefined;
  return (name: string, fn: () => Promise<void> | void) =>
    test(name, async (t) => {
      if (failed) {
        t.skip(`the step "${failed}" failed`);
        return;
      }
      try {
        await fn();
      } catch (e) {
        failed = name;
        const seen = await journey()
          ?.seen(name)
          .catch((err: unknown) => `(not readable: ${String(err)})`);
        if (e instanceof Error && seen) e.stack = `${e.stack ?? e.message}\n  the page showed: ${seen}`;
        throw e;
      }
    });
}
