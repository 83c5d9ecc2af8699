// Settings in Chromium: the appointment types on a phone (no sideways scrolling, whole names), and changing the
// business's time zone (asked first; the schedule then shows its times in the zone the dashboard names).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

async function withAdmin(width: number, height: number, run: (page: Page) => Promise<void>) {
  const { context, page } = await newPage(running.browser, running.product.url);
  try {
    await page.setViewportSize({ width, height });
    await logIn(page, 'admin@demo.test');
    await run(page);
  } finally {
    await context.close();
  }
}

describe('appointment types on a phone', () => {
  it.each([390, 414])('at %i px nothing scrolls sideways and every name shows whole', async (width) => {
    await withAdmin(width, 844, async (page) => {
      await page.goto('/settings/appointment-types');
      await page.getByTestId('appointment-type-row').first().waitFor();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(width);
      const names = page.getByRole('textbox', { name: /^Name of / });
      expect(await names.count()).toBeGreaterThan(0);
      const cut = await names.evaluateAll((inputs) =>
        (inputs as HTMLInputElement[]).filter((input) => input.scrollWidth > input.clientWidth || input.clientWidth < 150).map((input) => input.value));
      expect(cut).toEqual([]);
    });
  });
});

describe('changing the business’s time zone', () => {
  /** The next Monday in Brisbane: the demo books visits on weekdays. */
  const monday = () => {
    const today = Temporal.Now.plainDateISO('Australia/Brisbane');
    return today.add({ days: (8 - today.dayOfWeek) % 7 || 7 }).toString();
  };
  const firstVisitTime = async (page: Page, day: string) => {
    await page.goto(`/appointments?start=${day}&end=${day}`);
    const row = page.getByTestId('appointment-row').first();
    await row.waitFor();
    return /(\d\d):(\d\d)$/.exec((await row.getAttribute('aria-label')) ?? '')!.slice(1).map(Number);
  };

  it('asks first, then shows the schedule in the zone the dashboard names', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    try {
      await withAdmin(1280, 900, async (page) => {
        const day = monday();
        const [hour, minute] = await firstVisitTime(page, day);

        await page.goto('/settings/business-account');
        const zone = page.getByRole('combobox', { name: 'Time zone' });
        await zone.fill('perth');
        await page.getByRole('option', { name: 'Australia/Perth' }).click();
        await page.getByRole('button', { name: 'Save account settings' }).click();
        const question = page.getByRole('alertdialog', { name: 'Change the time zone to Australia/Perth?' });
        const change = question.getByRole('button', { name: 'Change the time zone' });
        await change.waitFor();
        expect(await question.textContent()).toContain('a visit at 09:00 now will show as 07:00');
        await change.click();
        await page.getByTestId('toast').filter({ hasText: 'The account settings have been saved.' }).waitFor();

        await page.goto('/dashboard');
        await expect.poll(() => page.getByTestId('dashboard-time-zone').innerText()).toBe('Australia/Perth');
        // Perth is two hours behind Brisbane all year: the same first visit, two hours earlier on the clock.
        expect(await firstVisitTime(page, day)).toEqual([hour - 2, minute]);
      });
    } finally {
      await api('/business_account', { method: 'PATCH', body: JSON.stringify({ time_zone: 'Australia/Brisbane' }) });
    }
  }, 90_000);
});
