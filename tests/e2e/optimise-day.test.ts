// A coordinator optimises a demo weekday in a real browser against the real server and optimiser: the proposal shows
// travel falling and the rule book's problems before → after (the proposal takes the focus; Escape asks before discarding it), Apply writes the routes, the day shows them, and a changed visit's change log names the optimisation;
// taking that visit off its route makes its arrival editable again.
import { describe, expect, it } from 'vitest';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';
import { demoWeekday, minutesOf, openOptimiseDialog } from './support/demoDay';

// A short search keeps the test quick; the demo day still gets shorter.
const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '2000' });

describe('optimising a day', () => {
  it('proposes less travel, applies it, and the visit shows the route and the change log entry', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      const day = demoWeekday(2).toString();
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await dialog.getByTestId('optimization-progress').waitFor();

      const kpis = dialog.getByTestId('proposal-kpis');
      await kpis.waitFor({ timeout: 60_000 });
      // The proposal takes the focus (not the page), and Escape asks before throwing it away; Escape again keeps it.
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('proposal-heading');
      await page.keyboard.press('Escape');
      const question = page.getByRole('alertdialog', { name: 'Discard this proposal?' });
      await question.getByRole('button', { name: 'Keep the proposal' }).waitFor();
      await page.keyboard.press('Escape');
      await question.waitFor({ state: 'detached' });
      await kpis.waitFor();
      // The day checked by the rule book before → after: each rule with problems, or that there are none.
      const rules = dialog.getByRole('region', { name: 'Rules' });
      expect(await rules.getByTestId('proposal-rules').or(rules.getByTestId('proposal-rules-none')).count()).toBe(1);
      const travel = kpis.getByTestId('kpi-travel_seconds').getByRole('cell');
      const before = minutesOf((await travel.nth(0).textContent())!);
      const after = minutesOf((await travel.nth(1).textContent())!);
      expect(after).toBeLessThan(before);
      const firstChange = dialog.getByTestId('proposal-change').first();
      const client = (await firstChange.getByRole('cell').nth(1).textContent())!;
      const newArrival = (await firstChange.getByRole('cell').nth(2).textContent())!.split('→')[1].trim();

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByTestId('toast').first().textContent()).toMatch(/^Optimisation of .* applied: \d+ visits? changed/);
      await expect.poll(() => page.getByTestId('route-mark').count()).toBeGreaterThan(0);

      // The changed visit now arrives at the proposal's time, set by its route, and its change log names the optimisation.
      await page.getByTestId('schedule-block').and(page.locator(`[aria-label^="${newArrival} ${client}"]`)).first().click();
      const modal = page.getByTestId('appointment-details-modal');
      await expect.poll(() => modal.getByTestId('arrival-time').getAttribute('data-state')).toBe('locked');
      await expect.poll(() => modal.getByTestId('change-log-reason').allTextContents()).toContain('Optimised by Alex Morgan');

      await modal.getByRole('button', { name: 'Remove from route' }).click();
      await expect.poll(() => modal.getByTestId('arrival-time').getAttribute('data-state')).toBe('viewing');
      await modal.getByRole('button', { name: 'Close' }).last().click();
      await page.getByTestId('stale-route-banner').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
