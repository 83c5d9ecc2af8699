// Care plans in a real browser, against the real server, optimiser and the Cliniko sandbox the demo imports from.
//
// A coordinator (staff@demo.test) at 1280 px gives a demo client a care plan of three visits a week from tomorrow, on
// weekdays with no public holiday in the next four weeks, in the client's details; on /open-visits plans four weeks of
// care visits: the proposal places the plan's 12 visits with at most two carers for the client; booking it writes 12
// appointments for the client to the sandbox. On a 390 px phone an open visit is listed and Fill offers its best fits
// within the width and books the best. Axe finds nothing serious in the plan's form, the proposal or Fill's choices.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { scan, newAxePage } from './support/axeWalk';
import { logIn } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductWithSandbox } from './support/running';
import { idOfLink, sandboxGet, type SandboxAppointment } from './support/sandbox';

const { running, sandbox } = useProductWithSandbox({ OPTIMIZER_MAX_SEARCH_MS: '3000' });

const ZONE = 'Australia/Brisbane';
const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

interface ClientRow { id: number; full_name: string; first_name: string; last_name: string; has_custom_availability: boolean; has_address: boolean }
interface ClientDetail { id: number; lat: number | null; lng: number | null; excluded_practitioner_ids: number[] }
interface SandboxPatient { id: string; first_name: string; last_name: string }

/** A demo client the plan can go to: an address on the map and no availability of their own to work around. */
async function chooseClient(): Promise<ClientRow> {
  const admin = await apiAs(running.product.url, 'admin@demo.test');
  const { clients } = await admin<{ clients: ClientRow[] }>('/clients?per_page=50');
  for (const client of clients.filter((row) => row.has_address && !row.has_custom_availability)) {
    const { client: detail } = await admin<{ client: ClientDetail }>(`/clients/${client.id}`);
    if (detail.lat !== null && detail.lng !== null && detail.excluded_practitioner_ids.length === 0) return client;
  }
  throw new Error('No demo client with a map position and no availability of their own');
}

/** Three weekdays (ISO, Monday = 1) on none of which the next four weeks from `first` have a public holiday. */
async function weekdaysWithoutHolidays(first: Temporal.PlainDate): Promise<number[]> {
  const admin = await apiAs(running.product.url, 'admin@demo.test');
  const { public_holidays: holidays } = await admin<{ public_holidays: { date: string }[] }>('/public_holidays');
  const last = first.add({ days: 27 });
  const blocked = new Set(holidays.map((holiday) => Temporal.PlainDate.from(holiday.date))
    .filter((day) => Temporal.PlainDate.compare(day, first) >= 0 && Temporal.PlainDate.compare(day, last) <= 0)
    .map((day) => day.dayOfWeek));
  const days = [1, 2, 3, 4, 5].filter((day) => !blocked.has(day)).slice(0, 3);
  if (days.length < 3) throw new Error(`Public holidays leave fewer than three weekdays: ${[...blocked].join(', ')}`);
  return days;
}

describe('a care plan, planned and booked', () => {
  it('plans 3 visits a week for 4 weeks: 12 visits placed with at most two carers, booked in the sandbox', async () => {
    const client = await chooseClient();
    const tomorrow = Temporal.Now.plainDateISO(ZONE).add({ days: 1 });
    const weekdays = await weekdaysWithoutHolidays(tomorrow);
    // The sandbox's appointments booked from here on are this test's.
    const since = Temporal.Now.instant().subtract({ seconds: 5 }).toString();

    // At 1280 px, with axe allowed in (the product's CSP forbids inline scripts).
    const page = await newAxePage(running);
    const context = page.context();
    const findings: string[] = [];
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'staff@demo.test');
      await page.goto('/clients');
      await page.getByLabel('Search').fill(client.full_name);
      await page.getByTestId('client-row').filter({ hasText: client.full_name }).first().click();
      const modal = page.getByTestId('client-details-modal');
      const plan = modal.getByRole('region', { name: 'Care plan' });
      await plan.getByRole('button', { name: 'Add to care plan' }).click();
      const form = plan.getByRole('form', { name: 'New care plan' });
      await form.getByLabel('Type of visit').selectOption({ label: 'Medication check (15 min)' });
      expect(await form.getByLabel('Duration (minutes)').inputValue()).toBe('15');
      for (const day of weekdays) await form.getByRole('button', { name: WEEKDAY_NAMES[day - 1], exact: true }).click();
      await form.getByLabel('Window from').fill('09:00');
      await form.getByLabel('Window to').fill('12:00');
      await scan(page, 'care plan form', findings, '[data-testid="client-details-modal"]');
      await form.getByRole('button', { name: 'Add care plan' }).click();
      const row = plan.getByTestId('care-plan-row');
      await row.waitFor();
      expect(await row.textContent()).toContain(`Medication check · ${weekdays.map((day) => WEEKDAY_NAMES[day - 1]).join(', ')} · 09:00–12:00 · 15 min`);
      await modal.getByRole('button', { name: 'Close', exact: true }).click();

      await page.goto('/open-visits');
      await page.getByLabel('Weeks ahead').selectOption({ label: '4 weeks' });
      await page.getByRole('button', { name: 'Plan care visits' }).click();
      const proposal = page.getByRole('region', { name: 'Proposal' });
      await proposal.waitFor({ timeout: 120_000 });

      const ours = proposal.getByTestId('proposed-visit').filter({ hasText: client.full_name });
      expect(await ours.count()).toBe(12);
      expect(await ours.filter({ hasText: 'Stays open' }).count()).toBe(0);
      const carers = await proposal.getByTestId('carers-of-client').filter({ hasText: `${client.full_name}:` }).textContent();
      expect(Number(/(\d+) carers?/.exec(carers!)![1])).toBeLessThanOrEqual(2);
      expect(await proposal.getByTestId('figure-hard-breaks').locator('dd').textContent()).toBe('0');
      await scan(page, 'allocation proposal', findings, 'main');

      await proposal.getByRole('button', { name: /^Book \d+ visits?$/ }).click();
      await page.getByRole('status').filter({ hasText: /booked/i }).first().waitFor({ timeout: 60_000 });
      // The client's plan counts its visits booked.
      await page.goto('/clients');
      await page.getByLabel('Search').fill(client.full_name);
      await page.getByTestId('client-row').filter({ hasText: client.full_name }).first().click();
      await expect.poll(() => modal.getByTestId('care-plan-row').textContent()).toContain('12 upcoming visits booked · 0 open visits');
      expect(problems).toEqual([]);
      expect(findings).toEqual([]);
    } finally {
      await context.close();
    }

    // Each booked visit is written to Cliniko in the background: the sandbox ends up with the client's 12, at most two practitioners.
    const { patients } = await sandboxGet<{ patients: SandboxPatient[] }>(
      sandbox.url, `/patients?q[]=${encodeURIComponent(`last_name:=${client.last_name}`)}&q[]=${encodeURIComponent(`first_name:=${client.first_name}`)}`,
    );
    expect(patients).toHaveLength(1);
    const booked = async () => (await sandboxGet<{ individual_appointments: (SandboxAppointment & { cancelled_at: string | null })[] }>(
      sandbox.url, `/individual_appointments?per_page=100&q[]=patient_id:=${patients[0].id}&q[]=${encodeURIComponent(`created_at:>=${since}`)}`,
    )).individual_appointments.filter((appointment) => appointment.cancelled_at === null);
    await expect.poll(async () => (await booked()).length, { timeout: 60_000, interval: 1000 }).toBe(12);
    const appointments = await booked();
    expect(new Set(appointments.map((appointment) => idOfLink(appointment.practitioner.links.self))).size).toBeLessThanOrEqual(2);
    const days = appointments.map((appointment) => Temporal.Instant.from(appointment.starts_at).toZonedDateTimeISO(ZONE));
    expect(new Set(days.map((day) => day.dayOfWeek))).toEqual(new Set(weekdays));
    for (const day of days) expect(day.hour * 60 + day.minute).toBeGreaterThanOrEqual(9 * 60);
  }, 300_000);

  it('on a 390 px phone: an open visit is listed with why, Fill offers who could take it within the width and books one', async () => {
    const client = await chooseClient();
    const staff = await apiAs(running.product.url, 'staff@demo.test');
    const { appointment_types: types } = await staff<{ appointment_types: { id: number; name: string }[] }>('/appointment_types/all');
    const day = demoWeekday(3).toString();
    await staff('/open_visits', {
      method: 'POST',
      body: JSON.stringify({ client_id: client.id, appointment_type_id: types.find((type) => type.name === 'Medication check')!.id, date: day, window_start: '13:00', window_end: '15:00', notes: 'Phone test' }),
    });

    const page = await newAxePage(running);
    const context = page.context();
    await page.setViewportSize({ width: 390, height: 844 });
    const findings: string[] = [];
    try {
      await logIn(page, 'staff@demo.test');
      await page.goto('/open-visits');
      await page.getByRole('heading', { name: 'Open visits', level: 1 }).waitFor();
      const visit = page.getByTestId('open-visit').filter({ hasText: 'Phone test' });
      await visit.waitFor();
      expect(await visit.textContent()).toContain(`${client.full_name} · Medication check13:00–15:00 · 15 min`);
      expect(await visit.getByTestId('open-visit-reason').textContent()).not.toBe('');
      await visit.getByRole('button', { name: /^Fill / }).click();
      const choices = visit.getByRole('group', { name: `Who could take ${client.full_name}’s visit` });
      const best = choices.getByRole('radio').first();
      await best.waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
      await scan(page, 'open visits at 390 px with Fill', findings, 'main');
      expect(findings).toEqual([]);
      await best.check();
      await choices.getByRole('button', { name: /^Book with / }).click();
      // Filled: booked (and written to Cliniko), it leaves the open list.
      await visit.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  }, 120_000);
});
