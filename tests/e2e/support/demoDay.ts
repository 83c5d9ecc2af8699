// What the e2e files that plan a demo day share: choosing a weekday the demo books, opening the Optimise dialog on
// the shown day once its visits are counted, and reading the proposal's durations.
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';

/**
 * The first weekday at least `daysAhead` days after today in Brisbane: the demo books visits on weekdays. Each file
 * routes its own day (the files share no server, but a day far enough ahead stays in the future all test long).
 */
export function demoWeekday(daysAhead: number): Temporal.PlainDate {
  let day = Temporal.Now.plainDateISO('Australia/Brisbane').add({ days: daysAhead });
  while (day.dayOfWeek > 5) day = day.add({ days: 1 });
  return day;
}

/** Opens "Optimise" on the day schedule shown and waits until the dialog has counted the day's visits. */
export async function openOptimiseDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Optimise' }).click();
  const dialog = page.getByTestId('optimise-dialog');
  await expect.poll(() => dialog.getByTestId('optimise-visit-count').textContent()).toMatch(/^[1-9]\d* visits/);
  return dialog;
}

/** "4 h 42 min" / "45 min" in minutes. */
export function minutesOf(text: string): number {
  const match = /(?:(\d+) h )?(\d+) min/.exec(text);
  if (!match) throw new Error(`not a duration: ${text}`);
  return Number(match[1] ?? 0) * 60 + Number(match[2]);
}
