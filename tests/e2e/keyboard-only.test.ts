// Issue 15: the main flows with a keyboard alone (Tab, Shift+Tab, Enter, Space, Escape, arrow keys; no click, no
// fill): log in, switch the theme, open a client and change their availability, change an arrival time, run an
// import, optimise a day. Every element Tab reaches shows a focus ring, Tab never leaves an open modal, and closing a
// modal puts focus back on what opened it.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newPage } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductAndBrowser } from './support/running';

// A short search keeps the optimisation quick.
const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '2000' });

/** What the focused element is, for a message, and whether it shows a ring: an outline or a box-shadow ring (0 0 0 Npx). */
const focusedElement = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { what: 'body', ring: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadowRing = /0px 0px 0px [1-9]/.test(style.boxShadow);
    const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
    return { what: `<${element.tagName.toLowerCase()}${element.dataset.testid ? ` data-testid=${element.dataset.testid}` : ''}> ${name}`, ring: outline || shadowRing };
  });

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

class Keyboard {
  /** Each focused element that showed no ring. */
  readonly ringless = new Set<string>();

  constructor(readonly page: Page) {}

  async press(key: string) {
    await this.page.keyboard.press(key);
  }

  /** Tabs (forward, or back with Shift) until `target` has focus, checking the ring of every element on the way. */
  async tabTo(target: Locator, { back = false, limit = 80 } = {}) {
    await target.waitFor();
    for (let step = 0; step < limit; step++) {
      if (await isFocused(target)) return;
      await this.press(back ? 'Shift+Tab' : 'Tab');
      const focused = await focusedElement(this.page);
      if (!focused.ring && focused.what !== 'body') this.ringless.add(focused.what);
    }
    throw new Error(`Tab did not reach ${target.toString()} in ${limit} steps`);
  }

  async type(text: string) {
    await this.page.keyboard.type(text);
  }

  /** Marks the focused element as the opener of a modal about to open. */
  async markOpener() {
    await this.page.evaluate(() => document.activeElement?.setAttribute('data-e2e-opener', ''));
  }

  async expectFocusBackOnOpener() {
    await expect.poll(() => this.page.evaluate(() => document.activeElement?.hasAttribute('data-e2e-opener') ?? false)).toBe(true);
    await this.page.evaluate(() => document.activeElement?.removeAttribute('data-e2e-opener'));
  }

  /** Tab and Shift+Tab, `presses` times each, never take focus out of `modal`. */
  async expectFocusTrappedIn(modal: Locator, presses = 25) {
    // Headless UI focuses the dialog element around the panel when it opens.
    const inside = () => modal.evaluate((element) => (element.closest('[role="dialog"]') ?? element).contains(document.activeElement));
    await expect.poll(async () => (await inside()) || (await focusedElement(this.page)).what, { message: 'focus moves into the modal' }).toBe(true);
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let step = 0; step < presses; step++) {
        await this.press(key);
        if (!(await inside())) throw new Error(`focus left the modal for ${(await focusedElement(this.page)).what} after ${step + 1} × ${key}`);
      }
    }
  }
}

describe('with a keyboard only', () => {
  it('logs in, switches the theme, edits availability and an arrival time, imports and optimises a day', { timeout: 150_000 }, async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    await page.setViewportSize({ width: 1280, height: 900 });
    const keys = new Keyboard(page);
    try {
      // Log in.
      await page.goto('/login');
      await keys.tabTo(page.getByLabel('Email'));
      await keys.type('admin@demo.test');
      await keys.tabTo(page.getByLabel('Password'));
      await keys.type('rounds-demo');
      await keys.press('Enter');
      await page.waitForURL('**/dashboard');

      // The theme menu with the arrow keys; the choice is stored.
      await keys.tabTo(page.getByRole('button', { name: /^Theme:/ }));
      await keys.press('Enter');
      await page.getByRole('menu').waitFor();
      // Headless UI keeps focus on the menu and marks the active item.
      const dark = page.getByRole('menuitem', { name: 'Dark' });
      for (let step = 0; step < 3 && (await dark.getAttribute('data-focus')) === null; step++) await keys.press('ArrowDown');
      await keys.press('Enter');
      await expect.poll(() => page.evaluate(() => [document.documentElement.classList.contains('dark'), localStorage.getItem('appearance-theme')]))
        .toEqual([true, '"dark"']);

      // Open a client from the sidebar's Clients page and change their availability.
      await keys.tabTo(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients' }));
      await keys.press('Enter');
      await page.waitForURL('**/clients');
      await keys.tabTo(page.getByTestId('client-row').first());
      await keys.markOpener();
      await keys.press('Enter');
      const clientModal = page.getByTestId('client-details-modal');
      await clientModal.waitFor();
      await keys.expectFocusTrappedIn(clientModal);
      const custom = clientModal.getByRole('switch', { name: 'Custom availability' });
      await keys.tabTo(custom, { back: true });
      if ((await custom.getAttribute('aria-checked')) !== 'true') await keys.press('Space');
      const saturday = clientModal.getByRole('checkbox', { name: 'Saturday', exact: true });
      await keys.tabTo(saturday);
      if (await saturday.isChecked()) await keys.press('Space');
      await keys.press('Space');
      await keys.tabTo(clientModal.getByRole('checkbox', { name: 'Saturday all day' }));
      await keys.press('Space');
      await keys.tabTo(clientModal.getByRole('checkbox', { name: 'Saturday 09:00-12:00' }));
      await keys.press('Space');
      await keys.tabTo(clientModal.getByRole('button', { name: 'Save availability' }));
      await keys.press('Enter');
      await page.getByTestId('toast').filter({ hasText: 'The availability has been updated.' }).waitFor();
      await keys.press('Escape');
      await clientModal.waitFor({ state: 'detached' });
      await keys.expectFocusBackOnOpener();

      // Change an arrival time: five minutes earlier with the arrow key.
      const day = demoWeekday(1).toString();
      await page.goto(`/appointments?start=${day}&end=${day}`);
      await keys.tabTo(page.getByTestId('appointment-row').first());
      await keys.markOpener();
      await keys.press('Enter');
      const visitModal = page.getByTestId('appointment-details-modal');
      await visitModal.waitFor();
      await keys.expectFocusTrappedIn(visitModal, 12);
      await keys.tabTo(visitModal.getByRole('button', { name: 'Edit arrival time' }));
      await keys.press('Enter');
      const arrival = visitModal.getByLabel('Arrival time');
      await keys.tabTo(arrival);
      const before = await arrival.inputValue();
      await keys.press('ArrowDown');
      const wanted = await arrival.inputValue();
      expect(wanted).not.toBe(before);
      await keys.press('Enter');
      await expect.poll(() => visitModal.getByTestId('arrival-time').getAttribute('data-state')).toBe('viewing');
      expect(await visitModal.getByTestId('arrival-time').textContent()).toContain(wanted);
      await keys.press('Escape');
      await visitModal.waitFor({ state: 'detached' });
      await keys.expectFocusBackOnOpener();

      // Run an import from the header.
      await keys.tabTo(page.getByTestId('app-header').getByRole('button', { name: 'Import', exact: true }), { back: true });
      await keys.markOpener();
      await keys.press('Enter');
      const importModal = page.getByTestId('import-modal');
      await importModal.waitFor();
      await keys.expectFocusTrappedIn(importModal, 10);
      await keys.tabTo(importModal.getByRole('button', { name: 'Start import' }));
      await keys.press('Enter');
      await expect.poll(() => importModal.getByTestId('job-status').innerText(), { timeout: 60_000, interval: 500 }).toBe('Complete');
      await keys.press('Escape');
      await importModal.waitFor({ state: 'detached' });
      await keys.expectFocusBackOnOpener();

      // Optimise a day on its schedule and apply the proposal.
      const routed = demoWeekday(2).toString();
      await page.goto(`/appointments?view=schedule&start=${routed}&end=${routed}`);
      await page.getByTestId('day-schedule').waitFor();
      await keys.tabTo(page.getByRole('button', { name: 'Optimise' }));
      await keys.markOpener();
      await keys.press('Enter');
      const optimise = page.getByTestId('optimise-dialog');
      await expect.poll(() => optimise.getByTestId('optimise-visit-count').textContent()).toMatch(/^[1-9]\d* visits/);
      await keys.expectFocusTrappedIn(optimise, 10);
      await keys.tabTo(optimise.getByRole('button', { name: 'Start', exact: true }));
      await keys.press('Enter');
      await optimise.getByTestId('proposal-kpis').waitFor({ timeout: 60_000 });
      await keys.tabTo(optimise.getByRole('button', { name: 'Apply', exact: true }));
      await keys.press('Enter');
      await optimise.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByTestId('toast').first().textContent()).toMatch(/^Optimisation of .* applied/);
      await keys.expectFocusBackOnOpener();

      expect([...keys.ringless]).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
