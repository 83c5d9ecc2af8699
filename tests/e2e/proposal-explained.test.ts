// A proposal that explains itself (issue 35), in a real browser against the real server and optimiser on the demo:
// a coordinator (staff) at 1280 px optimises a demo weekday reassigning between practitioners; the changes table lists
// the biggest moves from the agreed time first, sorts by minutes moved both ways, names a reason for every change,
// filters to moves of 30 min or more, and shows a change's visit on the lanes and the map; the proposal says its plan
// and seed, and "Try another plan" runs again with a new seed. Screenshots at 1280 px and 390 px go to /tmp.
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';

// A short search keeps the test quick (its iterations follow the search time).
const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '1500' });

const movedOf = async (table: Locator) => Promise.all((await table.getByTestId('proposal-change').all()).map(async (row) => Number(await row.getAttribute('data-minutes-moved'))));

describe('reading a proposal', () => {
  it('sorts the changes by minutes moved, names each reason, and shows a change on the lanes and the map', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await page.setViewportSize({ width: 1280, height: 900 });
      await logIn(page, 'staff@demo.test');
      const day = demoWeekday(4).toString();
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      await dialog.getByText('Reassign between these practitioners').click();
      await dialog.getByRole('button', { name: 'Start' }).click();
      await dialog.getByTestId('proposal-kpis').waitFor({ timeout: 90_000 });

      // The plan and its seed.
      await expect.poll(() => dialog.getByTestId('proposal-plan').textContent()).toMatch(/^Plan \d+ of this day · seed \d{4}$/);
      const firstSeed = (await dialog.getByTestId('proposal-plan').textContent())!.replace(/.* seed /, '');

      const table = dialog.getByTestId('proposal-changes');
      await table.waitFor();
      const moved = await movedOf(table);
      expect(moved.length).toBeGreaterThan(0);
      // The biggest moves first.
      expect(moved).toEqual([...moved].sort((a, b) => b - a));
      // Every change names at least one reason.
      const reasons = await table.getByTestId('change-reasons').allTextContents();
      expect(reasons).toHaveLength(moved.length);
      for (const reason of reasons) expect(reason).toMatch(/^(Travel saved|A rule fixed|Continuity|Leave|Preferred practitioner|Closer to the agreed time|The lane's new order)/);
      await table.scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/proposal-explained-1280.png' });

      // Minutes moved the other way round, then back.
      await dialog.getByTestId('sort-moved').click();
      expect(await movedOf(table)).toEqual([...moved].sort((a, b) => a - b));
      await dialog.getByTestId('sort-moved').click();
      expect(await movedOf(table)).toEqual([...moved].sort((a, b) => b - a));

      // Moves of 30 min or more only.
      await dialog.getByTestId('changes-filter').selectOption('moved-30');
      const big = moved.filter((minutes) => minutes >= 30);
      if (big.length) expect(await movedOf(table)).toEqual(big);
      else await dialog.getByTestId('changes-none-shown').waitFor();
      await dialog.getByTestId('changes-filter').selectOption('all');

      // A change's client shows its visit on the "after" lanes and the map.
      await table.getByTestId('proposal-change').first().getByRole('button').first().click();
      await expect.poll(() => dialog.locator('[data-testid="proposal-stop"][data-focused="true"]').count()).toBe(1);
      expect(await dialog.getByTestId('proposal-map').getAttribute('data-focused')).toMatch(/^\d+$/);
      await dialog.getByTestId('map-changes-only').check();
      expect(await dialog.getByTestId('proposal-map').getAttribute('data-changes-only')).toBe('true');
      await dialog.getByTestId('proposal-lanes').scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/proposal-explained-1280-lanes.png' });

      // At 390 px: the table keeps client, minutes moved, arrival and why.
      await page.setViewportSize({ width: 390, height: 844 });
      await table.scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/proposal-explained-390.png' });
      await dialog.getByTestId('proposal-lanes').scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/proposal-explained-390-lanes.png' });
      await page.setViewportSize({ width: 1280, height: 900 });

      // Another plan: a new seed, shown.
      await dialog.getByTestId('try-another-plan').click();
      await expect.poll(() => dialog.getByTestId('proposal-plan').textContent(), { timeout: 90_000 }).toMatch(/^Plan \d+ of this day · seed \d{4}$/);
      await expect.poll(async () => (await dialog.getByTestId('proposal-plan').textContent())!.replace(/.* seed /, ''), { timeout: 90_000 }).not.toBe(firstSeed);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
