// A coordinator looks for who could take a new visit near a client: the practitioner whose day already passes by that
// client comes first, with the travel the visit adds (spaced from the client's visit that day, as the rules ask), and is
// drawn on the map; the clients nearby are listed.
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { demoWeekday, minutesOf } from './support/demoDay';
import { useProductAndBrowser } from './support/running';

const running = useProductAndBrowser();

interface DayVisit { client_id: number; practitioner_id: number; status: string }
interface Nearby { practitioners: { practitioner_id: number; name: string; insertion: { added_travel_seconds: number } | null }[] }

describe('nearby search', () => {
  it('finds the practitioner whose day passes by the client, best first', async () => {
    const api = await apiAs(running.product.url, 'staff@demo.test');
    const day = demoWeekday(3).toString();
    const { appointments, clients } = await api<{ appointments: DayVisit[]; clients: { id: number; full_name: string }[] }>(`/appointments?start_date=${day}&end_date=${day}`);
    // A client visited that day by a practitioner with room for 15 more minutes, who is the best to add one (the demo
    // fills some days).
    let chosen: { client: string; practitioner: string; addedSeconds: number } | null = null;
    for (const visit of appointments.filter((row) => row.status !== 'CANCELLED')) {
      const nearby = await api<Nearby>(`/search/nearby?client_id=${visit.client_id}&date=${day}&duration_minutes=15`);
      const [best] = nearby.practitioners;
      if (best?.practitioner_id === visit.practitioner_id && best.insertion) {
        chosen = { client: clients.find((row) => row.id === visit.client_id)!.full_name, practitioner: best.name, addedSeconds: best.insertion.added_travel_seconds };
        break;
      }
    }
    expect(chosen).not.toBeNull();

    const { context, page } = await newPage(running.browser, running.product.url);
    try {
      await logIn(page, 'staff@demo.test');
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`/search?date=${day}`);
      // At 1280 px the day stays on one line and its shortcuts clear the Type select.
      const dayValue = page.getByTestId('date-value');
      const lineHeight = await dayValue.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      expect((await dayValue.boundingBox())!.height).toBeLessThanOrEqual(lineHeight * 1.5);
      const tomorrow = (await page.getByRole('button', { name: 'Tomorrow' }).boundingBox())!;
      const type = (await page.getByLabel('Type').boundingBox())!;
      const overlap = tomorrow.x < type.x + type.width && type.x < tomorrow.x + tomorrow.width && tomorrow.y < type.y + type.height && type.y < tomorrow.y + tomorrow.height;
      expect(overlap).toBe(false);

      // The origin is a combobox used from the keyboard alone: type, arrow to the client, Enter.
      const origin = page.getByRole('combobox', { name: 'Near a client or an address' });
      await origin.focus();
      await origin.pressSequentially(chosen!.client, { delay: 20 });
      const options = page.getByRole('listbox', { name: 'Matching clients' }).getByRole('option');
      const clientOptions = options.filter({ hasNotText: 'Search near the address' }).filter({ hasText: chosen!.client });
      await expect.poll(() => clientOptions.count(), { timeout: 10_000 }).toBeGreaterThan(0);
      expect(await origin.getAttribute('aria-expanded')).toBe('true');
      const texts = await options.allInnerTexts();
      const index = texts.findIndex((text) => text.startsWith(chosen!.client));
      for (let step = 0; step < index; step += 1) await page.keyboard.press('ArrowDown');
      expect(await options.nth(index).getAttribute('data-focus')).not.toBeNull();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.url()).toMatch(/near_client=\d+/);
      expect(await origin.getAttribute('aria-expanded')).toBe('false');
      await page.getByLabel('Length (min)').fill('15');

      const offers = page.getByRole('region', { name: /^Who could take a 15-minute visit/ }).getByRole('listitem');
      await expect.poll(() => offers.count(), { timeout: 20_000 }).toBeGreaterThan(0);
      const best = offers.first();
      expect(await best.innerText()).toContain(chosen!.practitioner);
      expect(await best.innerText()).toContain('Best');
      const added = /\+((?:\d+ h )?\d+ min) travel/.exec(await best.innerText());
      expect(Math.abs(minutesOf(added![1]) - chosen!.addedSeconds / 60)).toBeLessThanOrEqual(0.5);
      expect(await page.getByRole('region', { name: /^Clients within/ }).getByRole('button', { name: chosen!.client }).count()).toBeGreaterThan(0);
      expect(page.url()).toMatch(/near_client=\d+/);
      // The best practitioner's day opens on the schedule.
      await best.getByRole('link', { name: new RegExp(`^Open ${chosen!.practitioner}’s day`) }).click();
      await expect.poll(() => page.url()).toMatch(new RegExp(`/appointments\\?view=schedule&start=${day}&end=${day}&practitioner=\\d+`));
      // … with the place the visit fits marked on their lane.
      await page.getByTestId('fit-note').waitFor();
      expect(await page.getByRole('listitem', { name: chosen!.practitioner, exact: true }).getByTestId('schedule-fit').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
