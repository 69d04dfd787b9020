import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';

/** Steps and locators shared by the browser journeys. */

/**
 * UI text by key, with {{param}} interpolation; a missing key fails the journey. A numeric `count` picks the
 * plural form (`key_one`, `key_other`) the way i18next does.
 */
export function translator(locale: Map<string, string>, language = 'en-US') {
  const rules = new Intl.PluralRules(language);
  return (key: string, params: Record<string, string | number> = {}): string => {
    const plural = typeof params.count === 'number' ? (locale.get(`${key}_${rules.select(params.count)}`) ?? locale.get(`${key}_other`)) : undefined;
    const v = plural ?? locale.get(key);
    assert.ok(v, `missing key ${key}`);
    return v.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(params[k] ?? ''));
  };
}

export async function waitForPath(page: Page, expected: string | RegExp): Promise<void> {
  await page.waitForURL((u) => (typeof expected === 'string' ? u.pathname === expected : expected.test(u.pathname)), { timeout: 15_000 });
  // the address changes first; the page it names is on screen once the console marks it (router.tsx RouteMark)
  await page.waitForFunction(() => document.documentElement.dataset['route'] === location.pathname, undefined, { timeout: 15_000, polling: 100 });
}

export const toast = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });
export const modal = (page: Page, title: string) => page.locator('.ant-modal', { has: page.locator('.ant-modal-title', { hasText: title }) });

/**
 * Opens a page from the sidebar (unfolding its section when needed) and waits until it is rendered:
 * the previous page stays on screen while a lazy page loads.
 */
export async function menu(page: Page, section: string, item: string, pageTestId: string): Promise<void> {
  const sidebar = page.getByTestId('sidebar');
  const entry = sidebar.getByRole('menuitem', { name: item });
  if (!(await entry.isVisible())) await sidebar.getByText(section, { exact: true }).click();
  await entry.click();
  await page.getByTestId(pageTestId).waitFor();
}

/**
 * Opens a console path inside the running console, as its menus do (the router moves; nothing reloads). A page load
 * costs the browser about 2 s of CPU, ten times a click through the menu: use this to reach a page a step is not
 * about loading, and `page.goto` when the load itself is the point (a first visit, a link from outside, a reload).
 */
export async function openPath(page: Page, to: string): Promise<void> {
  await page.evaluate((path) => {
    window.history.pushState(null, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await waitForPath(page, new URL(to, 'http://x').pathname);
}

/** Signs out as a user does: the avatar menu, Sign out, then OK in the confirmation; waits for the login page. */
export async function signOut(page: Page, tr: (key: string) => string): Promise<void> {
  await page.getByTestId('avatar-menu').click();
  await page.getByRole('menuitem', { name: tr('layout.avatar.logout') }).click();
  await page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: tr('common.actions.ok') })
    .click();
  await waitForPath(page, '/login');
}

/** A new administrator's first minutes: sign in, land on /company/create (company-0 rule), create the company. */
export async function signInAndCreateCompany(
  page: Page,
  baseUrl: string,
  admin: { username: string; password: string },
  company: { name: string; phone: string },
): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await waitForPath(page, '/login');
  await page.locator('#username').fill(admin.username);
  await page.locator('#password').fill(admin.password);
  await page.getByTestId('login-submit').click();
  await waitForPath(page, '/company/create');
  await page.locator('#name').fill(company.name);
  await page.locator('#phone').fill(company.phone);
  await page.getByTestId('company-submit').click();
  await waitForPath(page, '/dashboard');
}

/** Users → Organization → a top-level department named `name`, through its dialog. `tr`: the journey's translator. */
export async function addDepartment(page: Page, tr: (key: string) => string, name: string): Promise<void> {
  await menu(page, tr('route.user'), tr('route.organization'), 'organization-page');
  await page.getByTestId('dept-add-top').click();
  const dialog = modal(page, tr('org.addTop'));
  await dialog.getByTestId('department-name').fill(name);
  await dialog.getByRole('button', { name: tr('common.actions.save') }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Users → Personnel list → Add person: the form's next number (`number`), face, name, phone, one department; saved. */
export async function addPerson(
  page: Page,
  tr: (key: string) => string,
  p: { name: string; phone: string; department: string; photo: Buffer; number?: string },
): Promise<void> {
  await menu(page, tr('route.user'), tr('route.personList'), 'person-list-page');
  await page.getByTestId('person-create').click();
  await page.getByTestId('person-form').waitFor({ state: 'visible' });
  await page.waitForFunction((n) => document.querySelector<HTMLInputElement>('[data-testid=person-form] #number')?.value === n, p.number ?? '1');
  await fillPerson(page, p);
  await page.getByTestId('person-save').click();
  await page.getByTestId('person-form').waitFor({ state: 'hidden' });
}

/**
 * Opens a department TreeSelect and picks a department by its title, until the field shows it. On a starved machine a
 * click on the option can come to nothing (the field stays empty, and saving says the field is required): clicked
 * again (at most 3 times), as a person who sees the empty field would.
 */
export async function pickTreeOption(page: Page, select: Locator, title: string): Promise<void> {
  const shown = select.locator('.ant-select-content, .ant-select-selection-item', { hasText: title }).first();
  const option = treeOption(page, title);
  for (let attempt = 0; ; attempt++) {
    // a retry never clicks a chosen option again: in a multiple choice that would take it off
    if (attempt > 0 && (await option.isVisible()) && (await option.evaluate((el) => el.classList.contains('ant-select-tree-node-selected')))) {
      await shown.waitFor();
      return;
    }
    await clickTreeOption(page, select, title);
    const picked = await shown.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    );
    if (picked) return;
    if (attempt === 2) await shown.waitFor();
  }
}

/** The option titled `title` in the open tree dropdown. */
const treeOption = (page: Page, title: string) =>
  page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-node-content-wrapper', {
    has: page.getByText(title, { exact: true }),
  });

/** Clicks a TreeSelect's option once (opening the dropdown first when it is closed): in a multiple choice, a chosen one is taken off. */
export async function clickTreeOption(page: Page, select: Locator, title: string): Promise<void> {
  const option = treeOption(page, title);
  if (!(await option.isVisible())) await select.click();
  await option.waitFor();
  await page.waitForTimeout(300); // the dropdown slides in
  await option.click();
}

/** Fills the open person drawer: face photo, name, phone, card number (optional) and one department. */
export async function fillPerson(page: Page, p: { name: string; phone: string; department: string; photo: Buffer; card?: string }): Promise<void> {
  const form = page.getByTestId('person-form');
  await form
    .getByTestId('face-upload')
    .locator('input[type=file]')
    .setInputFiles({ name: `${p.name}.jpg`, mimeType: 'image/jpeg', buffer: p.photo });
  // the preview comes after the server's face check (a few hundred ms of its CPU): on a starved machine (the suite beside
  // two CPU hogs and other journeys) that took over 15 s, so this waits as a hang guard, not a speed bound
  await form.getByTestId('face-preview').waitFor({ timeout: 60_000 });
  await form.locator('#name').fill(p.name);
  await form.locator('#phone').fill(p.phone);
  if (p.card) await form.locator('#rfid').fill(p.card);
  await pickTreeOption(page, form.getByTestId('person-organizations'), p.department);
  await page.keyboard.press('Escape');
}

/** Picks an option of an antd Select by its exact label (only the open dropdown counts: the one just used may still be fading out). */
export async function chooseOption(page: Page, select: Locator, label: string): Promise<void> {
  const option = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden):visible .ant-select-item-option')
    .filter({ has: page.getByText(label, { exact: true }) });
  // a click while a dialog or drawer is still animating in may not open the dropdown: try again
  for (let attempt = 0; ; attempt++) {
    await select.click();
    const open = await option.waitFor({ timeout: 3000 }).then(
      () => true,
      () => false,
    );
    if (open) break;
    if (attempt === 2) await option.waitFor();
  }
  await page.waitForTimeout(300); // the dropdown slides in
  await option.click();
  await option.waitFor({ state: 'hidden' });
}

/** The input of a widget whose test id sits on the input itself or on a wrapper around it. */
export const inputOf = (l: Locator) => l.locator('xpath=self::input | .//input').first();

/**
 * Types a date into an antd DatePicker (single) and confirms it, until the picker holds it. On a starved machine the
 * Enter can reach the picker before it has read the typed text, and it keeps its old day: typed again (at most 3 times),
 * as a person would.
 */
export async function typeDate(picker: Locator, date: string): Promise<void> {
  const input = inputOf(picker);
  for (let attempt = 1; ; attempt++) {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
    const held = await input
      .evaluate(
        (el: HTMLInputElement, want) =>
          new Promise<boolean>((resolve) => {
            const end = Date.now() + 3000;
            const look = () => (el.value === want ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(look, 50));
            look();
          }),
        date,
      )
      .catch(() => false);
    if (held || attempt === 3) return;
    await input.press('Escape');
  }
}

/** Types both values of an antd RangePicker (antd puts the test id on both inputs of a range, or on a wrapper). */
export async function typeRange(picker: Locator, from: string, to: string): Promise<void> {
  const inputs = picker.locator('xpath=self::input | .//input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(from);
  await inputs.nth(0).press('Enter');
  await inputs.nth(1).fill(to);
  await inputs.nth(1).press('Enter');
}
