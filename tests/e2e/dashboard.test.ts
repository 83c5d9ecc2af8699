// The dashboard as each role meets it on the demo: an administrator's tiles agree with the pages they link to, and a
// practitioner sees their next visit and today's run sheet.
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

describe('the dashboard', () => {
  it("an administrator's tiles count what the schedule and the report show, and link to them", async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    const today = Temporal.Now.plainDateISO('Australia/Brisbane').toString();
    const { appointments } = await api<{ appointments: { status: string }[] }>(`/appointments?start_date=${today}&end_date=${today}`);
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      const visits = page.getByTestId('tile-visits');
      await expect.poll(() => visits.getByTestId('tile-figure').innerText(), { timeout: 15_000 })
        .toBe(String(appointments.filter((row) => row.status !== 'CANCELLED').length));
      await expect.poll(() => page.getByTestId('tile-last-import').getByTestId('tile-figure').innerText()).not.toBe('None');

      const missing = page.getByTestId('tile-clients-missing-address');
      const figure = await missing.getByTestId('tile-figure').innerText();
      await missing.getByRole('link', { name: 'Fix them (report)' }).click();
      await page.waitForURL('**/reports/clients-missing-address');
      await expect.poll(() => page.getByTestId('report-summary').innerText()).toMatch(new RegExp(`^Clients to fix\\s+${figure}\\b`));

      await page.goto('/dashboard');
      await visits.getByRole('link', { name: 'Today’s schedule' }).click();
      await page.waitForURL(new RegExp(`/appointments\\?.*start=${today}`));
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('counts the visits booked while their practitioner is on leave (the demo has a day of leave), and opens that day with them marked', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'admin@demo.test');
      const tile = page.getByTestId('tile-visits-on-leave');
      await expect.poll(() => tile.getByTestId('tile-figure').innerText(), { timeout: 15_000 }).toMatch(/^[1-9]\d*$/);
      await tile.getByRole('link', { name: /^Reassign / }).click();
      await page.waitForURL(/\/appointments\?view=schedule/);
      await expect.poll(() => page.getByTestId('block-on-leave').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId('lane-on-leave').first().innerText()).toMatch(/^\d+ visits? booked while on leave$/);
    } finally {
      await context.close();
    }
  });

  it('a practitioner sees their next visit and today’s run sheet, and no team tiles', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'practitioner@demo.test');
      const next = page.getByTestId('next-visit');
      await next.waitFor();
      // The demo books weekdays ahead, so a next visit always exists; it names a time and a client.
      expect(await next.innerText()).toMatch(/\d{2}:\d{2} · \S+/);
      await expect.poll(() => page.getByRole('heading', { name: 'Today’s run sheet' }).count()).toBe(1);
      expect(await page.getByTestId('dashboard-tiles').count()).toBe(0);
      await next.getByRole('button', { name: 'Open the visit' }).or(next.getByRole('link', { name: 'Open the visit' })).click();
      await page.getByTestId('appointment-details-modal').waitFor();
    } finally {
      await context.close();
    }
  });
});
