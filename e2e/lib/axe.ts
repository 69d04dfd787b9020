import axeCore from 'axe-core';
import type { Page } from 'playwright-core';

/** The WCAG 2.1 A and AA rules axe-core knows (WCAG 2.0's included). */
const WCAG21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** One rule broken, with the elements that break it (CSS selectors) and what axe says of the first. */
export interface AxeViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  /** each element (a CSS selector) with what axe says of it (for contrast: the colours and the ratio) */
  nodes: { target: string; summary: string }[];
}

/**
 * axe-core's WCAG 2.1 AA violations inside `selector` on `page` (a page's own card, so the shell's findings are the
 * shell's journey's business). The engine is evaluated through the DevTools protocol, which the console's CSP
 * (script-src 'self') does not govern, so no inline script tag is needed.
 */
export async function axeViolations(page: Page, selector: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeCore.source);
  return page.evaluate(
    async ({ selector, tags }) => {
      const axe = (window as unknown as { axe: typeof axeCore }).axe;
      const r = await axe.run(selector, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return r.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/^Fix any of the following:\s*/, '') })),
      }));
    },
    { selector, tags: WCAG21_AA },
  );
}
