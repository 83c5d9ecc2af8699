// Issue 10 in a real Chromium whose locale is en-US and whose zone is not the business's: the arrival-time editor
// keeps the 24-hour clock and tells its window, and the change log reads in words.
import { describe, expect, it } from 'vitest';
import { logIn, openFirstAppointment } from './support/browser';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

describe('appointment modal in an en-US browser', () => {
  it('edits the arrival time on the 24-hour clock with its window shown, and reads the change log in words', async () => {
    const context = await running.browser.newContext({ baseURL: running.product.url, locale: 'en-US', timezoneId: 'America/New_York', viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    try {
      await logIn(page, 'admin@demo.test');
      const modal = await openFirstAppointment(page);
      await modal.getByRole('button', { name: 'Edit arrival time' }).click();
      const input = modal.getByLabel('Arrival time');
      expect(await input.inputValue()).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
      await input.fill('13:30');
      // What Chromium draws is the text itself: no AM/PM field of a locale-formatted time input.
      expect(await input.evaluate((element: HTMLInputElement) => [element.type, element.value])).toEqual(['text', '13:30']);
      const hint = modal.getByTestId('arrival-time-hint');
      await expect.poll(() => hint.textContent()).toMatch(/^Allowed: \d\d:\d\d to \d\d:\d\d \(\d+ minutes either side of the booked time\), Australia\/Brisbane time\. 24-hour clock, 5-minute steps\.$/);
      await input.fill('23:55');
      await input.press('Enter');
      const alert = modal.getByTestId('arrival-time').getByRole('alert');
      await expect.poll(() => alert.textContent()).toMatch(/^The arrival time must be between \d\d:\d\d and \d\d:\d\d: within \d+ minutes of the booked time, on the appointment's day \(Australia\/Brisbane\)\.$/);
      if (process.env.E2E_SCREENSHOTS) await modal.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/arrival-time-en-US.png` });

      const firstEntry = modal.getByTestId('change-log-entry').first();
      await firstEntry.waitFor();
      const text = (await firstEntry.textContent()) ?? '';
      expect(text).toMatch(/Practitioner: /);
      expect(text).not.toMatch(/ id\b|\blat\b|\blng\b|\b(AM|PM)\b/);
      if (process.env.E2E_SCREENSHOTS) {
        await firstEntry.scrollIntoViewIfNeeded();
        await modal.screenshot({ path: `${process.env.E2E_SCREENSHOTS}/change-log.png` });
      }
    } finally {
      await context.close();
    }
  });
});
