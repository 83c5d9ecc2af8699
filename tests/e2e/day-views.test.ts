// A day as each role reads it in Chromium: the practitioner's phone (a header kept for their day, the day schedule as
// a list per practitioner, nothing scrolling sideways) and the coordinator's 1,280 px list, whose names are never cut.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();
const DAY = demoWeekday(1).toString();

async function asUser(email: string, width: number, height: number, run: (page: Page) => Promise<void>) {
  const { context, page } = await newPage(running.browser, running.product.url);
  try {
    await page.setViewportSize({ width, height });
    await logIn(page, email);
    await run(page);
  } finally {
    await context.close();
  }
}

/** The first weekday ahead on which the practitioner has two visits or more (the sandbox's weeks differ). */
async function practitionersDay(): Promise<string> {
  const api = await apiAs(running.product.url, 'practitioner@demo.test');
  for (let ahead = 1; ahead < 14; ahead++) {
    const day = demoWeekday(ahead).toString();
    const { appointments } = await api<{ appointments: unknown[] }>(`/appointments?start_date=${day}&end_date=${day}`);
    if (appointments.length > 1) return day;
  }
  throw new Error('practitioner@demo.test has no day with two visits in the next two weeks');
}

const pageScrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

describe('a practitioner on a phone (390 × 844)', () => {
  it('gets a header without Import and Export, and the day schedule as a list of visits with their times', async () => {
    const day = await practitionersDay();
    await asUser('practitioner@demo.test', 390, 844, async (page) => {
      await page.goto(`/appointments?start=${day}&end=${day}&view=schedule`);
      const agenda = page.getByTestId('day-agenda');
      await agenda.waitFor();
      expect(await page.getByTestId('app-header').getByRole('button', { name: 'Import' }).isVisible()).toBe(false);
      expect(await page.getByTestId('app-header').getByRole('button', { name: 'Export' }).isVisible()).toBe(false);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
      // Every visit of the day is listed with its time span, whatever its hour: nothing waits behind a sideways scroll.
      const visits = agenda.getByTestId('schedule-block');
      expect(await visits.count()).toBeGreaterThan(1);
      for (const text of await visits.allTextContents()) expect(text).toMatch(/^\d\d:\d\d–\d\d:\d\d\S/);
      const last = (await visits.all()).at(-1)!;
      await last.scrollIntoViewIfNeeded();
      expect(await last.isVisible()).toBe(true);
      await page.screenshot({ path: '/tmp/day-e2e-practitioner-390.png', fullPage: true });
    });
  });

  it('a coordinator on the same phone keeps Import and Export', async () => {
    await asUser('admin@demo.test', 390, 844, async (page) => {
      await page.goto(`/appointments?start=${DAY}&end=${DAY}`);
      await page.getByTestId('appointment-row').first().waitFor();
      expect(await page.getByTestId('app-header').getByRole('button', { name: 'Import' }).isVisible()).toBe(true);
    });
  });
});

describe('a coordinator at 1,280 px', () => {
  it('reads every client and practitioner name whole in the list and the lanes', async () => {
    await asUser('admin@demo.test', 1280, 900, async (page) => {
      await page.goto(`/appointments?start=${DAY}&end=${DAY}&per_page=100`);
      await page.getByTestId('appointment-row').first().waitFor();
      const cut = await page.getByTestId('appointment-row').evaluateAll((rows) =>
        rows.flatMap((row) => [...row.querySelectorAll('td')].filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent)));
      expect(cut).toEqual([]);
      await page.getByRole('button', { name: 'Day schedule' }).click();
      await page.getByTestId('schedule-lane').first().waitFor();
      const cutNames = await page.getByTestId('schedule-lane').evaluateAll((lanes) =>
        lanes.map((lane) => lane.firstElementChild!.firstElementChild as HTMLElement).filter((name) => name.scrollWidth > name.clientWidth + 1).map((name) => name.textContent));
      expect(cutNames).toEqual([]);
      // A short visit shows its words on hover, whole, in a popover.
      const popover = page.getByTestId('schedule-block-popover').first();
      await popover.locator('xpath=..').hover();
      await popover.waitFor();
      // Its words are the block's name, word for word (WCAG 2.5.3 while it shows).
      expect(await popover.textContent()).toBe(await popover.locator('xpath=..').getAttribute('aria-label'));
      await page.screenshot({ path: '/tmp/day-e2e-admin-1280.png', fullPage: true });
    });
  });
});
