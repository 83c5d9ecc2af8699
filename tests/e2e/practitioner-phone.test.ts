// The practitioner's phone (issue 34), in Chromium at 390 px with three visits of today: Done is one tap, the finished
// visit folds and the sheet moves on to the next, and the note follows on the done visit (in its change log as
// "note: …"); every tap target of the day is at least 44 × 44 px; the words are the practitioner's; and without signal
// the start page opens, a day never opened says it is not saved on this phone, and Send now says why nothing went.
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn } from './support/browser';
import { bookToday, PRACTITIONER, ZONE, type Day } from './support/practitionerToday';
import { useProductWithSandbox } from './support/running';

const MIN_TAP = 44;
const { running, sandbox } = useProductWithSandbox();

let day: Day;
beforeAll(async () => {
  // Three visits an hour apart from half an hour on (late in the evening, from 21:00: still today).
  const now = Temporal.Now.zonedDateTimeISO(ZONE);
  const first = now.add({ minutes: 30 }).round({ smallestUnit: 'minute', roundingMode: 'ceil' });
  const lastFirst = now.with({ hour: 21, minute: 0, second: 0, millisecond: 0, microsecond: 0, nanosecond: 0 });
  const start = Temporal.ZonedDateTime.compare(first, lastFirst) < 0 ? first : lastFirst;
  day = await bookToday(running.product, sandbox.url, [0, 1, 2].map((hours) => ({ starts: start.add({ hours }) })));
}, 120_000);

/** Every visible control on the page smaller than MIN_TAP either way, named and measured (none but visually hidden ones). */
function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const controls = document.querySelectorAll<HTMLElement>('a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])');
    const small: string[] = [];
    for (const control of controls) {
      // A radio or checkbox is tapped through its label, the whole of which is its target.
      const box = (control.matches('input[type="radio"], input[type="checkbox"]') ? control.closest('label') ?? control : control).getBoundingClientRect();
      // Visually hidden until focused (Skip to content): 1 × 1 px.
      if (box.width <= 1 || box.height <= 1 || getComputedStyle(control).visibility === 'hidden') continue;
      if (box.width < min || box.height < min) {
        const name = (control.getAttribute('aria-label') ?? control.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
        small.push(`${control.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
    }
    return small;
  }, MIN_TAP);
}

async function openPhone() {
  const context = await running.browser.newContext({ baseURL: running.product.url, timezoneId: ZONE, locale: 'en-AU', viewport: { width: 390, height: 844 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  return { context, page, problems };
}

const stopOf = (page: Page, client: string) => page.getByTestId('run-sheet-stop').filter({ hasText: client });

describe("the practitioner's day at 390 px", () => {
  it('Done is one tap: the visit folds, the sheet moves on to the next, and the note follows', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await openPhone();
    try {
      await logIn(page, PRACTITIONER);
      await page.goto('/appointments');
      const [first, second] = day.visits;
      const stop = stopOf(page, first.client);
      await stop.getByRole('button', { name: 'On my way' }).click();
      await stop.getByRole('button', { name: 'Arrived' }).click();
      await stop.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('done');
      const admin = await apiAs(running.product.url, 'admin@demo.test');
      const visitState = async () => (await admin<{ appointment: { visit_state: string; visit: { note: string | null } | null } }>(`/appointments/${first.id}`)).appointment;
      await expect.poll(async () => (await visitState()).visit_state).toBe('done');

      // Folded: its time, client and state; the sheet has moved to the next visit, at the top of the screen.
      await expect.poll(() => stop.getAttribute('data-folded')).toBe('true');
      expect(await stop.getByTestId('run-sheet-address').count()).toBe(0);
      expect(await stop.getByRole('link', { name: 'Google Maps' }).count()).toBe(0);
      // Just under the page's sticky header (64 px).
      const next = stopOf(page, second.client);
      await expect.poll(async () => Math.round((await next.boundingBox())!.y), { timeout: 5_000 }).toBeGreaterThanOrEqual(64);
      expect((await next.boundingBox())!.y).toBeLessThan(120);
      await page.screenshot({ path: 'tmp/practitioner-phone-390-done.png' });

      // The note, after Done.
      await stop.getByRole('button', { name: 'Add a note' }).click();
      await stop.getByLabel('Note').fill('Meds given, all well.');
      await stop.getByRole('button', { name: 'Save the note' }).click();
      await expect.poll(() => stop.getByTestId('visit-note').textContent()).toBe('Note: Meds given, all well.');
      expect((await visitState()).visit?.note).toBe('Meds given, all well.');
      const { versions } = await admin<{ versions: { reason: string | null }[] }>(`/appointments/${first.id}/extra_details`);
      expect(versions.map((version) => version.reason).filter((reason) => reason?.includes('note'))).toEqual(['note: Meds given, all well.']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no tap target under 44 × 44 px, on the day and in its menus', { timeout: 120_000 }, async () => {
    const { context, page } = await openPhone();
    try {
      // The start page holds today's run sheet too.
      await logIn(page, PRACTITIONER);
      await page.getByTestId('run-sheet-stop').nth(day.visits.length - 1).waitFor();
      await page.screenshot({ path: 'tmp/practitioner-phone-390-start.png', fullPage: true });
      expect(await smallTapTargets(page)).toEqual([]);
      await page.goto('/appointments');
      await page.getByTestId('run-sheet-stop').nth(day.visits.length - 1).getByRole('button', { name: 'On my way' }).waitFor();
      await page.screenshot({ path: 'tmp/practitioner-phone-390-day.png', fullPage: true });
      expect(await smallTapTargets(page)).toEqual([]);
      // A visit's Could not attend reasons, and the day's visit details.
      const last = stopOf(page, day.visits[2].client);
      await last.getByRole('button', { name: 'Could not attend' }).click();
      expect(await smallTapTargets(page)).toEqual([]);
      await last.getByRole('button', { name: 'Back' }).click();
      await last.getByRole('button', { name: 'Details' }).click();
      const modal = page.getByTestId('appointment-details-modal');
      await modal.getByTestId('visit-status').waitFor();
      await page.screenshot({ path: 'tmp/practitioner-phone-390-details.png', fullPage: true });
    } finally {
      await context.close();
    }
  });
});

describe("the practitioner's phone without signal", () => {
  it('opens the start page and the day kept, says a day never opened is not saved on this phone, and says why Send now sent nothing', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await openPhone();
    try {
      // The first login, and the signal goes once the service worker is in charge: the start page opens again.
      await logIn(page, PRACTITIONER);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
      // Every read of the start page answered: the visits' addresses, notes and phone numbers come in reads of their
      // own, after the day; the page is kept once it has stopped changing.
      await page.waitForLoadState('networkidle');
      let startPage = '';
      for (let reads = 0; reads < 20; reads++) {
        const shown = await page.getByRole('main').innerText();
        if (shown === startPage) break;
        startPage = shown;
        await page.waitForTimeout(1_500);
      }
      await context.setOffline(true);
      await page.reload();
      await expect.poll(() => page.getByRole('main').innerText(), { timeout: 15_000 }).toBe(startPage);
      await page.screenshot({ path: 'tmp/practitioner-phone-390-offline-start.png', fullPage: true });

      // The day, read with signal, is kept.
      await context.setOffline(false);
      await page.goto('/appointments');
      await stopOf(page, day.visits[1].client).waitFor();
      await context.setOffline(true);
      await page.reload();
      const stop = stopOf(page, day.visits[1].client);
      await stop.getByRole('button', { name: 'On my way' }).click();
      const waiting = page.getByTestId('steps-waiting');
      await waiting.getByRole('button', { name: 'Send now' }).click();
      await expect.poll(() => waiting.getByTestId('steps-not-sent').textContent()).toBe(
        'Nothing was sent: this phone has no signal. The steps stay here and go by themselves when the network is back.',
      );

      // Five days on: never opened on this phone.
      for (let days = 0; days < 5; days++) await page.getByRole('button', { name: 'Next period' }).click();
      await expect.poll(() => page.getByTestId('day-not-saved').textContent(), { timeout: 15_000 })
        .toBe('This day is not saved on this phone: it was not opened while there was signal. It shows once the network is back.');
      await page.screenshot({ path: 'tmp/practitioner-phone-390-offline-day.png', fullPage: true });
      expect(await page.getByText('Loading appointments…').count()).toBe(0);
      await context.setOffline(false);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
