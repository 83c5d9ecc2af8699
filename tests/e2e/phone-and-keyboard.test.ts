// Issue 10, every day: the appointments and clients pages on a phone (nothing scrolls sideways, the first visits are on
// the first screen), with a keyboard (a focused row is clearly marked), and a three-day range on a 1,400 px screen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

/** The next Monday (today when it is one) in the demo's zone: the demo books visits on weekdays. */
function nextMonday(): Temporal.PlainDate {
  const today = Temporal.Now.plainDateISO('Australia/Brisbane');
  return today.add({ days: (8 - today.dayOfWeek) % 7 });
}

async function withPage(width: number, height: number, run: (page: Page) => Promise<void>) {
  const { context, page } = await newPage(running.browser, running.product.url);
  try {
    await page.setViewportSize({ width, height });
    await logIn(page, 'admin@demo.test');
    await run(page);
  } finally {
    await context.close();
  }
}

const pageScrollWidth = (page: Page) => page.evaluate(() => document.scrollingElement!.scrollWidth);

describe('on a phone (390 × 844)', () => {
  it('never scrolls the appointments or clients page sideways, in the table or the schedule', async () => {
    const monday = nextMonday().toString();
    await withPage(390, 844, async (page) => {
      await page.goto(`/appointments?start=${monday}&end=${monday}`);
      await page.getByTestId('appointment-row').first().waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);

      await page.getByRole('button', { name: 'Day schedule' }).click();
      await page.getByTestId('schedule-block').first().waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);

      await page.goto('/clients');
      await page.getByTestId('client-row').first().waitFor();
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);
    });
  });

  it('keeps the filters behind a Filters button that counts the active ones, so the first visits show on the first screen', async () => {
    const monday = nextMonday().toString();
    await withPage(390, 844, async (page) => {
      await page.goto(`/appointments?start=${monday}&end=${monday}`);
      const firstRow = page.getByTestId('appointment-row').first();
      await firstRow.waitFor();
      expect(await page.getByTestId('filter-practitioners').isVisible()).toBe(false);
      const box = await firstRow.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);

      const toggle = page.getByRole('button', { name: /^Filters/ });
      expect(await toggle.textContent()).not.toMatch(/\d/);
      await toggle.click();
      await page.getByTestId('filter-practitioners').getByRole('button').click();
      await page.getByRole('option').first().click();
      await page.keyboard.press('Escape');
      await expect.poll(() => toggle.textContent()).toMatch(/Filters\s*\(?1\)?/);
    });
  });
});

describe('the clients page on a phone (390 × 844)', () => {
  it('keeps the search in view, the tag and address filters behind the Filters button, and each client on one or two lines', async () => {
    await withPage(390, 844, async (page) => {
      await page.goto('/clients');
      const rows = page.getByTestId('client-row');
      await rows.first().waitFor();
      expect(await page.getByLabel('Search').isVisible()).toBe(true);
      expect(await page.getByLabel('Tag').isVisible()).toBe(false);
      expect(await page.getByLabel('Missing address').isVisible()).toBe(false);
      // The search and the Filters button share one row above the table.
      const search = (await page.getByLabel('Search').boundingBox())!;
      const toggle = page.getByRole('button', { name: /^Filters/ });
      const toggleBox = (await toggle.boundingBox())!;
      expect(Math.abs(toggleBox.y + toggleBox.height - (search.y + search.height))).toBeLessThanOrEqual(4);
      const table = (await page.getByRole('table', { name: 'Clients' }).boundingBox())!;
      expect(table.y - search.y).toBeLessThanOrEqual(80);
      // An email address is never broken over lines: rows stay one or two lines tall.
      for (const box of await Promise.all((await rows.all()).map((row) => row.boundingBox()))) expect(box!.height).toBeLessThanOrEqual(60);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(390);

      await toggle.click();
      await page.getByLabel('Missing address').check();
      await expect.poll(() => toggle.textContent()).toMatch(/Filters\s*\(?1\)?/);
    });
  });
});

describe('with a keyboard', () => {
  it('marks a focused appointment row, schedule block and client row with a clear ring', async () => {
    const monday = nextMonday().toString();
    await withPage(1280, 900, async (page) => {
      const ringOf = (selector: string) =>
        page.evaluate((css) => {
          const element = document.querySelector<HTMLElement>(css)!;
          element.focus();
          const style = getComputedStyle(element);
          return { focusVisible: element.matches(':focus-visible'), outline: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth) };
        }, selector);

      await page.goto(`/appointments?start=${monday}&end=${monday}`);
      await page.getByTestId('appointment-row').first().waitFor();
      await page.keyboard.press('Tab');
      const row = await ringOf('[data-testid="appointment-row"]');
      expect(row.focusVisible).toBe(true);
      expect(row.outline).toBeGreaterThanOrEqual(2);

      await page.getByRole('button', { name: 'Day schedule' }).click();
      await page.getByTestId('schedule-block').first().waitFor();
      await page.keyboard.press('Tab');
      const block = await ringOf('[data-testid="schedule-block"]');
      expect(block.focusVisible).toBe(true);
      expect(block.outline).toBeGreaterThanOrEqual(2);

      await page.goto('/clients');
      await page.getByTestId('client-row').first().waitFor();
      await page.keyboard.press('Tab');
      const client = await ringOf('[data-testid="client-row"]');
      expect(client.focusVisible).toBe(true);
      expect(client.outline).toBeGreaterThanOrEqual(2);
    });
  });
});

describe('on a 1,400 px screen', () => {
  it('fits a three-day range: the last column ends inside the window and the page does not scroll sideways', async () => {
    const monday = nextMonday();
    await withPage(1400, 900, async (page) => {
      await page.goto(`/appointments?start=${monday}&end=${monday.add({ days: 2 })}`);
      await page.getByTestId('appointment-row').first().waitFor();
      const headers = page.getByRole('table', { name: 'Appointments' }).getByRole('columnheader');
      const last = await headers.last().boundingBox();
      expect(last!.x + last!.width).toBeLessThanOrEqual(1400);
      const status = await headers.filter({ hasText: 'Status' }).boundingBox();
      expect(status!.x + status!.width).toBeLessThanOrEqual(1400);
      // Nothing is hidden to the right inside the table's own scroll box either.
      const box = await page.getByRole('table', { name: 'Appointments' }).evaluate((table) => ({
        scrollWidth: table.parentElement!.scrollWidth,
        clientWidth: table.parentElement!.clientWidth,
        right: table.parentElement!.getBoundingClientRect().right,
      }));
      expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
      expect(last!.x + last!.width).toBeLessThanOrEqual(box.right);
      // The dates are short when the range spans days: a weekday and day, not the full date.
      expect(await page.getByTestId('appointment-row').first().getByRole('cell').first().textContent()).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} [A-Z][a-z]{2}\s*\d{2}:\d{2}–\d{2}:\d{2}$/);
      expect(await pageScrollWidth(page)).toBeLessThanOrEqual(1400);
    });
  });
});
