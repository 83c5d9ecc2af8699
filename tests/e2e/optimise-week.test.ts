// Weeks that fit real rosters (issue 35), in a real browser at 1280 px: a coordinator (a REGULAR_USER, who cannot open
// Settings) optimises the demo from a Monday to the Sunday after. The demo books weekdays only and some practitioners
// work Saturday mornings: the run is not refused, the weekend days say they have no visits, and Apply writes the
// weekdays' routes.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';
import { formatWeekday } from '../../src/lib/dates';
import { openOptimiseDialog } from './support/demoDay';

// A short search keeps a week's run quick.
const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '1000' });

/** The first Monday after today in Brisbane: its week lies inside the two weeks the demo books, all in the future. */
function nextMonday(): Temporal.PlainDate {
  const tomorrow = Temporal.Now.plainDateISO('Australia/Brisbane').add({ days: 1 });
  return tomorrow.add({ days: (8 - tomorrow.dayOfWeek) % 7 });
}

describe('optimising Monday to Sunday as a coordinator', () => {
  it('runs, says the weekend has no visits, and applies', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await logIn(page, 'staff@demo.test');
      const monday = nextMonday();
      const sunday = monday.add({ days: 6 });
      await page.goto(`/appointments?view=schedule&start=${monday}&end=${monday}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      await dialog.getByTestId('optimise-to').selectOption({ label: `${formatWeekday(sunday.toString())} (7 days)` });
      await expect.poll(() => dialog.getByTestId('optimise-visit-count').textContent()).toMatch(/^[1-9][\d,]* visits of the chosen practitioners on these days/);
      await dialog.getByRole('button', { name: 'Start' }).click();

      const days = dialog.getByTestId('proposal-day');
      await dialog.getByTestId('proposal-week-kpis').waitFor({ timeout: 180_000 });
      const dates = Array.from({ length: 7 }, (_, index) => monday.add({ days: index }).toString());
      expect(await days.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-date')))).toEqual(dates);
      // The weekend: no visits booked, so nothing to plan, said on its button and when it is shown.
      for (const index of [5, 6]) expect(await days.nth(index).textContent()).toMatch(/\(no visits\)$/);
      await days.nth(5).click();
      const shown = dialog.getByTestId('proposal-day-shown');
      await expect.poll(() => shown.getAttribute('data-date')).toBe(dates[5]);
      expect(await shown.getByTestId('proposal-empty-day').textContent()).toBe(`Saturday ${monday.add({ days: 5 }).day}: no visits. Nothing to plan that day.`);
      expect(await shown.getByTestId('proposal-kpis').count()).toBe(0);
      // A weekday shows its proposal as a run of one day does.
      await days.nth(0).click();
      await shown.getByTestId('proposal-kpis').waitFor();
      expect(await dialog.getByTestId('optimise-step').getAttribute('data-step')).toBe('proposal');

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      await expect.poll(() => page.getByTestId('toast').first().textContent()).toMatch(/^Optimisation of .+ – .+ applied: /);
      const api = await apiAs(running.product.url, 'staff@demo.test');
      const { routes: mondays } = await api<{ routes: unknown[] }>(`/routes?date=${monday}`);
      expect(mondays.length).toBeGreaterThan(0);
      const { routes: saturdays } = await api<{ routes: unknown[] }>(`/routes?date=${dates[5]}`);
      expect(saturdays).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
