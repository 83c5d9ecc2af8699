// Optimising in a real browser, against the real server, optimiser and the Cliniko sandbox the demo imports from.
//
// A coordinator optimises a demo weekday: the proposal shows travel (never more) and the rule book's problems before →
// after (the proposal takes the focus; Escape asks before discarding it), Apply writes the routes, the day shows them, and a changed visit's change log names the
// optimisation; taking that visit off its route makes its arrival editable again.
//
// Issue 12's whole path: a coordinator sets a practitioner's hours and home on /settings/practitioners, optimises a
// demo weekday from /appointments (reassigning between practitioners), sees travel fall, applies, opens a changed visit
// (its change log names the optimisation), exports that day through the header's Export modal, and the sandbox then
// holds every routed visit at its applied arrival, with the routed practitioner.
//
// A coordinator optimises two days in one run from the dialog's range, sees which day it is on, both days' proposals,
// and applies them together.
//
// The tests share one product (each routes days of its own); they were two files, each starting its own.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn, newPage } from './support/browser';
import { useProductWithSandbox } from './support/running';
import { idOfLink, sandboxGet, type SandboxAppointment, type SandboxPractitioner } from './support/sandbox';
import { formatDay, formatWeekday } from '../../src/lib/dates';
import { demoWeekday, minutesOf, openOptimiseDialog } from './support/demoDay';

// A short search keeps the test quick; the sandbox is read over HTTP.
const { running, sandbox } = useProductWithSandbox({ OPTIMIZER_MAX_SEARCH_MS: '2000' });

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
// The demo's weekday hours are 07:00–17:30; starting at 08:00 is a change the applied route must show.
const HOURS = { start: '08:00', end: '18:00' };
const HOME = '15 Ipswich Road, Annerley QLD 4103';


interface ListItem { id: number; practitioner_id: number; status: string; starts_at: string; arrive_at: string | null }
interface PractitionerSettings { id: number; full_name: string; active: boolean; home: { lat: number | null; lng: number | null; precision: string } | null }
interface Route {
  practitioner_id: number; practitioner_name: string;
  start_place: { kind: string; lat: number; lng: number } | null;
  stops: { appointment_id: number; arrive_at: string }[];
}
interface Appointment { id: number; starts_at: string; ends_at: string; arrive_at: string | null; client: { full_name: string } | null }

/** 24-hour Brisbane clock time of an instant, as the schedule writes it: "09:15". */
const clockOf = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO('Australia/Brisbane').toPlainTime().toString({ smallestUnit: 'minute' });

describe('optimising a day', () => {
  it('proposes less travel, applies it, and the visit shows the route and the change log entry', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      // Six to eight days ahead: never the day the test below routes and exports (three to five days ahead).
      const day = demoWeekday(6).toString();
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
      // Never more travel; within the rules of home care (arrivals within 30 minutes of their booking) a demo day
      // keeping each visit's practitioner may have little to gain.
      const travel = kpis.getByTestId('kpi-travel_seconds').getByRole('cell');
      const before = minutesOf((await travel.nth(0).textContent())!);
      const after = minutesOf((await travel.nth(1).textContent())!);
      expect(after).toBeLessThanOrEqual(before);
      const firstChange = dialog.getByTestId('proposal-change').first();
      const client = (await firstChange.getByTestId('change-client').textContent())!;
      const newArrival = (await firstChange.getByRole('cell').nth(2).textContent())!.split('→')[1].trim();

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByTestId('toast').first().textContent()).toMatch(/^Optimisation of .* applied: \d+ visits? changed/);
      await expect.poll(() => page.getByTestId('route-mark').count()).toBeGreaterThan(0);

      // The changed visit now arrives at the proposal's time, set by its route, and its change log names the optimisation.
      await page.getByTestId('schedule-block').and(page.locator(`[aria-label^="${newArrival} ${client}"]`)).first().click();
      const modal = page.getByTestId('appointment-details-modal');
      await expect.poll(() => modal.getByTestId('arrival-time').getAttribute('data-state')).toBe('locked');
      await expect.poll(async () => (await modal.getByTestId('change-log-reason').allTextContents()).some((text) => /^Optimisation of \d{1,2} [A-Z][a-z]{2} by Alex Morgan$/.test(text))).toBe(true);

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

describe('optimising two days in one run', () => {
  it('takes a range in the dialog, says which day it is on, shows both days and applies them together', async () => {
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');
      // Two weekdays in a row, nine to thirteen days ahead: never a day the other tests route, and inside the fourteen
      // days the demo books.
      let first = demoWeekday(9);
      if (first.dayOfWeek === 5) first = first.add({ days: 3 });
      const second = first.add({ days: 1 });
      await page.goto(`/appointments?view=schedule&start=${first}&end=${first}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      await dialog.getByTestId('optimise-to').selectOption({ label: `${formatWeekday(second.toString())} (2 days)` });
      await expect.poll(() => dialog.getByTestId('optimise-visit-count').textContent()).toMatch(/^[1-9][\d,]* visits of the chosen practitioners on these days/);
      // Reassigning: a practitioner on leave on one of the days is left out of that day, their visits go to the others.
      await dialog.getByRole('radio', { name: /Reassign between these practitioners/ }).check();
      await dialog.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => dialog.getByTestId('progress-day').textContent(), { timeout: 30_000 }).toMatch(/^Day [12] of 2 — (Mon|Tue|Wed|Thu|Fri) \d+ \w{3}$/);

      const days = dialog.getByTestId('proposal-day');
      await dialog.getByTestId('proposal-week-kpis').waitFor({ timeout: 60_000 });
      expect(await days.evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-date')))).toEqual([first.toString(), second.toString()]);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('proposal-days-heading');
      // Each day as a run of one day shows it: its figures and its rules; the second day by its button.
      expect(await dialog.getByTestId('proposal-day-shown').getAttribute('data-date')).toBe(first.toString());
      await days.nth(1).click();
      await expect.poll(() => dialog.getByTestId('proposal-day-shown').getAttribute('data-date')).toBe(second.toString());
      await dialog.getByTestId('proposal-day-shown').getByTestId('proposal-kpis').waitFor();
      expect(await days.nth(1).getAttribute('aria-pressed')).toBe('true');

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await expect.poll(() => page.getByTestId('toast').first().textContent()).toMatch(/^Optimisation of .+ – .+ applied: /);
      // Both days have the run's routes.
      const api = await apiAs(running.product.url, 'admin@demo.test');
      for (const day of [first, second]) {
        const { routes } = await api<{ routes: Route[] }>(`/routes?date=${day}`);
        expect(routes.length, String(day)).toBeGreaterThan(0);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('from working data to the practice management system', () => {
  it('sets hours and home, optimises a day, applies, and the export leaves the sandbox with the applied arrivals', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    // A weekday three to five days ahead, fixed once: the demo imports today-7..today+21, so the day stays inside the
    // imported, future range even when Brisbane's date rolls (14:00 UTC) during the test; nothing below uses "today"
    // or "tomorrow" after this (the export's day is picked on the calendar).
    const day = demoWeekday(3);
    const weekday = WEEKDAYS[day.dayOfWeek - 1];

    // The practitioner with the most visits that day is the one whose working data the coordinator sets.
    const { appointments: visits } = await api<{ appointments: ListItem[] }>(`/appointments?start_date=${day}&end_date=${day}`);
    const counts = new Map<number, number>();
    for (const visit of visits.filter((v) => v.status === 'BOOKED')) counts.set(visit.practitioner_id, (counts.get(visit.practitioner_id) ?? 0) + 1);
    const [practitionerId] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const { practitioners } = await api<{ practitioners: PractitionerSettings[] }>('/practitioners');
    const practitioner = practitioners.find((p) => p.id === practitionerId)!;
    const oldHome = practitioner.home;
    // Their last visit of the day is kept at its time (so they keep a route when visits may move to others).
    const kept = visits.filter((v) => v.practitioner_id === practitionerId && v.status === 'BOOKED')
      .sort((a, b) => Date.parse(b.arrive_at ?? b.starts_at) - Date.parse(a.arrive_at ?? a.starts_at))[0];
    const keptTime = clockOf(kept.arrive_at ?? kept.starts_at);
    const keptClient = (await api<{ appointment: Appointment }>(`/appointments/${kept.id}`)).appointment.client!.full_name;
    expect(keptTime >= HOURS.start).toBe(true);

    // What the browser part saw: the proposal's number of changes and the home the dialog placed.
    const seen = { changeCount: 0, home: { lat: 0, lng: 0 } };
    const { context, page } = await newPage(running.browser, running.product.url);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'admin@demo.test');

      // Working hours for the day and the home address, through the practitioner's edit dialog.
      await page.goto('/settings/practitioners');
      await page.getByRole('button', { name: `Edit ${practitioner.full_name}`, exact: true }).click();
      const edit = page.getByTestId('practitioner-edit-dialog');
      const works = edit.getByRole('checkbox', { name: `Works on ${weekday}` });
      if (!(await works.isChecked())) await works.check();
      await edit.getByLabel(`${weekday} start`).fill(HOURS.start);
      await edit.getByLabel(`${weekday} end`).fill(HOURS.end);
      await edit.getByLabel('Start place').selectOption('home');
      await edit.getByLabel('Home address').fill(HOME);
      await edit.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(() => edit.getByTestId('home-placement').textContent(), { timeout: 15_000 }).toMatch(/^(Approximate: \w+ only)?Placed /);
      await edit.getByRole('button', { name: 'Save', exact: true }).click();
      await edit.waitFor({ state: 'detached' });
      const saved = (await api<{ practitioners: PractitionerSettings[] }>('/practitioners')).practitioners.find((p) => p.id === practitionerId)!;
      expect(saved.home?.lat).not.toBe(oldHome?.lat);
      seen.home = { lat: saved.home!.lat!, lng: saved.home!.lng! };

      // Keep that visit's time, from its modal on the day schedule.
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      await page.getByTestId('schedule-block').and(page.locator(`[aria-label^="${keptTime} ${keptClient}"]`)).first().click();
      const keptModal = page.getByTestId('appointment-details-modal');
      const keep = keptModal.getByRole('switch', { name: 'Keep this time' });
      await keep.click();
      await expect.poll(() => keep.getAttribute('aria-checked')).toBe('true');
      await keptModal.getByRole('button', { name: 'Close' }).last().click();
      await keptModal.waitFor({ state: 'detached' });

      // Optimise the day, letting the other visits move between practitioners.
      const dialog = await openOptimiseDialog(page);
      await dialog.getByRole('radio', { name: /Reassign between these practitioners/ }).check();
      await dialog.getByRole('button', { name: 'Start' }).click();
      const kpis = dialog.getByTestId('proposal-kpis');
      await kpis.waitFor({ timeout: 60_000 });
      const travel = kpis.getByTestId('kpi-travel_seconds').getByRole('cell');
      expect(minutesOf((await travel.nth(1).textContent())!)).toBeLessThan(minutesOf((await travel.nth(0).textContent())!));
      const changes = dialog.getByTestId('proposal-change');
      seen.changeCount = await changes.count();
      expect(seen.changeCount).toBeGreaterThan(0);
      const firstChange = changes.first();
      const client = (await firstChange.getByTestId('change-client').textContent())!;
      const newArrival = (await firstChange.getByRole('cell').nth(2).textContent())!.split('→')[1].trim();

      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await page.getByTestId('toast').filter({ hasText: /^Optimisation of .* applied: \d+ visits? changed/ }).waitFor();

      // A changed visit: its change log names the optimisation.
      await page.getByTestId('schedule-block').and(page.locator(`[aria-label^="${newArrival} ${client}"]`)).first().click();
      const modal = page.getByTestId('appointment-details-modal');
      await expect.poll(async () => (await modal.getByTestId('change-log-reason').allTextContents()).some((text) => /^Optimisation of \d{1,2} [A-Z][a-z]{2} by Alex Morgan$/.test(text))).toBe(true);
      await modal.getByRole('button', { name: 'Close' }).last().click();
      await modal.waitFor({ state: 'detached' });

      // Export that one day from the header's Export modal, which opens on the day the schedule shows.
      await page.getByRole('button', { name: 'Export', exact: true }).click();
      const exporting = page.getByRole('dialog', { name: 'Export appointments' });
      await exporting.getByRole('button', { name: 'One day only' }).click();
      await expect.poll(() => exporting.getByTestId('date-value').textContent()).toBe(formatDay(day));
      await exporting.getByRole('button', { name: 'Start export' }).click();
      // The confirmation names how many visits the export will change: at least the applied ones.
      await expect.poll(() => page.getByRole('alertdialog').textContent()).toMatch(/\d+ visits? will change in your practice management software/);
      const toChange = Number(/(\d+) visits? will change/.exec((await page.getByRole('alertdialog').textContent())!)![1]);
      expect(toChange).toBeGreaterThanOrEqual(seen.changeCount);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, export' }).click();
      await expect.poll(() => exporting.getByTestId('job-status').innerText(), { timeout: 60_000, interval: 500 }).toBe('Complete');
      expect(Number(await exporting.getByTestId('count-Exported').innerText())).toBeGreaterThanOrEqual(seen.changeCount);
      expect(Number(await exporting.getByTestId('count-Conflicts').innerText())).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // The applied routes: the edited practitioner starts from the new home, works inside the new hours and keeps the kept visit.
    const { routes } = await api<{ routes: Route[] }>(`/routes?date=${day}`);
    expect(routes.length).toBeGreaterThan(0);
    const own = routes.find((route) => route.practitioner_id === practitionerId);
    expect(own?.stops.length, 'the edited practitioner has a route').toBeGreaterThan(0);
    expect(own!.start_place).toMatchObject({ kind: 'home', lat: seen.home.lat, lng: seen.home.lng });
    for (const stop of own!.stops) expect(clockOf(stop.arrive_at) >= HOURS.start, `arrival ${clockOf(stop.arrive_at)} inside the hours`).toBe(true);
    const keptStop = own!.stops.find((stop) => stop.appointment_id === kept.id);
    expect(keptStop && Date.parse(keptStop.arrive_at), 'the kept visit keeps its practitioner and time').toBe(Date.parse(kept.arrive_at ?? kept.starts_at));

    // Every routed visit is in the sandbox at its applied arrival, the same length as before, with the routed practitioner.
    const practitionerBefore = new Map(visits.map((visit) => [visit.id, visit.practitioner_id]));
    let checked = 0;
    let reassigned = 0;
    for (const route of routes) {
      for (const stop of route.stops) {
        const [{ appointment }, details] = await Promise.all([
          api<{ appointment: Appointment }>(`/appointments/${stop.appointment_id}`),
          api<{ resource_map: { external_id: string } | null }>(`/appointments/${stop.appointment_id}/extra_details`),
        ]);
        expect(details.resource_map, `visit ${stop.appointment_id} came from the sandbox`).not.toBeNull();
        const remote = await sandboxGet<SandboxAppointment>(sandbox.url, `/individual_appointments/${details.resource_map!.external_id}`);
        expect(Temporal.Instant.from(remote.starts_at).equals(Temporal.Instant.from(stop.arrive_at)), `visit ${stop.appointment_id} starts at its arrival`).toBe(true);
        expect(Date.parse(remote.ends_at) - Date.parse(remote.starts_at)).toBe(Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at));
        const remotePractitioner = await sandboxGet<SandboxPractitioner>(sandbox.url, `/practitioners/${idOfLink(remote.practitioner.links.self)}`);
        expect(route.practitioner_name).toContain(remotePractitioner.first_name);
        expect(route.practitioner_name).toContain(remotePractitioner.last_name);
        checked += 1;
        if (practitionerBefore.get(stop.appointment_id) !== route.practitioner_id) reassigned += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(seen.changeCount);
    // The demo's day always has visits worth moving to another practitioner, so the PATCH's practitioner_id is exercised.
    expect(reassigned).toBeGreaterThan(0);
  });
});
