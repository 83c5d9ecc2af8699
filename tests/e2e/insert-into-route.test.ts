// A coordinator (REGULAR_USER) routes a demo weekday, then puts one of another practitioner's visits into a routed
// practitioner's day with "Insert into a route": the best place is shown before anything changes, Apply moves the visit
// there, its change log says "Moved by …", and the day says that route changed after it was optimised.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { logIn, newPage } from './support/browser';
import { useProductAndBrowser } from './support/running';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';

const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '2000' });


/** In the Insert panel's practitioner list, leaves only `name` chosen. */
async function chooseOnly(page: Page, panel: Locator, name: string) {
  await panel.getByTestId('multiselect-Among these practitioners').click();
  const options = page.getByRole('option');
  await options.first().waitFor();
  for (let index = 0; index < (await options.count()); index++) {
    const option = options.nth(index);
    const chosen = (await option.getAttribute('aria-selected')) === 'true';
    if (chosen !== ((await option.textContent())?.trim() === name)) await option.click();
  }
  await page.keyboard.press('Escape');
  await expect.poll(() => panel.getByTestId('multiselect-Among these practitioners').textContent()).toBe(name);
}

describe('inserting a visit into a route', () => {
  it("moves another practitioner's visit into a routed day at the place shown first, and the change log says who moved it", async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'staff@demo.test');
      const day = demoWeekday(2).toString();
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await dialog.getByTestId('proposal-kpis').waitFor({ timeout: 60_000 });
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByTestId('route-mark').count()).toBeGreaterThan(0);

      const lanes = page.getByTestId('schedule-lane');
      const target = (await lanes.filter({ has: page.getByTestId('route-mark') }).first().getAttribute('aria-label'))!;
      const modal = page.getByTestId('appointment-details-modal');

      // A visit of another practitioner whose type the routed practitioner delivers (the Move form lists who does).
      let moved: string | null = null;
      for (let laneIndex = 0; laneIndex < (await lanes.count()) && !moved; laneIndex++) {
        const lane = lanes.nth(laneIndex);
        if ((await lane.getAttribute('aria-label')) === target) continue;
        const block = lane.getByTestId('schedule-block').first();
        if (!(await block.count())) continue;
        await block.click();
        await modal.getByRole('button', { name: 'Move by hand' }).click();
        const select = modal.getByRole('combobox', { name: 'Practitioner' });
        await expect.poll(() => select.locator('option').count()).toBeGreaterThan(1);
        const offered = (await select.locator('option').allTextContents()).includes(target);
        await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
        if (offered) {
          await modal.getByRole('button', { name: 'Insert into a route' }).click();
          const panel = modal.getByTestId('insert-into-route');
          await chooseOnly(page, panel, target);
          await panel.getByRole('button', { name: 'Find the best place' }).click();
          const proposal = panel.getByTestId('insertion-proposal');
          const nowhere = panel.getByTestId('insertion-nowhere');
          await proposal.or(nowhere).waitFor({ timeout: 20_000 });
          if (await proposal.isVisible()) {
            expect(await proposal.getByTestId('insertion-where').textContent()).toMatch(new RegExp(`^${target}, arriving \\d{2} \\w{3} \\d{4} \\d{2}:\\d{2}$`));
            expect(await proposal.getByTestId('insertion-travel').textContent()).toMatch(/^Adds \d+ min and [\d.]+ k?m of travel/);
            expect(await proposal.getByTestId('insertion-compared').textContent()).toContain(`→ ${target}`);
            const arrival = (await proposal.getByTestId('insertion-where').textContent())!.replace(`${target}, arriving `, '');
            await panel.getByRole('button', { name: 'Apply' }).click();
            await expect.poll(() => page.getByTestId('toast').allTextContents()).toContainEqual(expect.stringMatching(new RegExp(`^Visit with .* moved: .* → ${target}`)));
            await expect.poll(() => modal.getByText('Practitioner', { exact: true }).locator('xpath=following-sibling::dd').textContent()).toBe(target);
            await expect.poll(() => modal.getByTestId('arrival-time').textContent()).toContain(arrival);
            await expect.poll(() => modal.getByTestId('change-log-reason').allTextContents()).toContain('Moved by Sam Taylor');
            // It joined that practitioner's route, and is still on it when read again.
            await expect.poll(() => modal.getByTestId('route-status').textContent()).toMatch(/^On an optimised route/);
            await page.reload();
            await expect.poll(() => modal.getByTestId('route-status').textContent()).toMatch(/^On an optimised route/);
            moved = arrival;
          }
        }
        await modal.getByRole('button', { name: 'Close' }).last().click();
        await modal.waitFor({ state: 'detached' });
      }
      expect(moved, `no visit of another practitioner could go into ${target}'s day`).not.toBeNull();
      // The routed day it joined is marked as changed since it was optimised.
      await expect.poll(() => page.getByTestId('stale-route-banner').textContent()).toContain(target);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
