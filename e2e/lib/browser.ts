import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where the journeys' screenshots go (e2e/screenshots). */
export const SHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

export interface Journey {
  browser: Browser;
  page: Page;
  /** Messages of uncaught errors thrown in the page, in order. */
  pageErrors: string[];
  /** Saves screenshots/<prefix><name>.png (the whole page unless `fullPage` is false). */
  screenshot(name: string, fullPage?: boolean): Promise<void>;
  /** Takes screenshots/<prefix>zz-final.png (best effort), then closes the browser. */
  close(): Promise<void>;
}

/** Debian Chromium (or CHROMIUM_PATH) with one page, its default timeout at 15 s and its uncaught errors collected. */
export async function openJourney(opts: {
  prefix: string;
  viewport: { width: number; height: number };
  acceptDownloads?: boolean;
  locale?: string;
}): Promise<Journey> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  let page: Page;
  try {
    const context = await browser.newContext({
      viewport: opts.viewport,
      locale: opts.locale ?? 'en-US',
      ...(opts.acceptDownloads !== undefined ? { acceptDownloads: opts.acceptDownloads } : {}),
    });
    page = await context.newPage();
  } catch (e) {
    await browser.close();
    throw e;
  }
  page.setDefaultTimeout(15_000);
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return {
    browser,
    page,
    pageErrors,
    async screenshot(name, fullPage = true) {
      await page.screenshot({ path: path.join(SHOTS, `${opts.prefix}${name}.png`), fullPage });
    },
    async close() {
      await page.screenshot({ path: path.join(SHOTS, `${opts.prefix}zz-final.png`) }).catch(() => undefined);
      await browser.close();
    },
  };
}
