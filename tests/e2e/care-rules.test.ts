// The rules of home care (issue 24) as a coordinator meets them in Chromium, against the real server and the demo:
// - Settings → Optimisation keeps the tolerance, the gap between a client's visits, the minutes before a visit that
//   fix it and the balance choice; Settings → Appointment types gives a type its own tolerance, which its visits'
//   arrival editor then allows.
// - By hand: the arrival editor refuses a time beyond the tolerance, a move next to the client's other visit is refused,
//   and so is a move to a practitioner the client asked not to see, each in the rule's words.
// - Leave added in Settings → Practitioners marks that day's visits on the schedule and counts them on the dashboard;
//   removing it clears both.
// - A day before today cannot be optimised; an applied optimisation undone puts the day back as it was.
// Each test takes a day of its own (or changes nothing on a day) and puts back the settings it changed.
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { apiAs, type Api } from './support/api';
import { logIn, newPage } from './support/browser';
import { demoWeekday, openOptimiseDialog } from './support/demoDay';
import { formatDay } from '../../src/lib/dates';
import { useProductAndBrowser } from './support/running';

// A short search keeps the undo test quick.
const running = useProductAndBrowser({ OPTIMIZER_MAX_SEARCH_MS: '2000' });

const ZONE = 'Australia/Brisbane';

interface Visit {
  id: number; starts_at: string; ends_at: string; arrive_at: string | null; route_id: number | null; status: string;
  client_id: number | null; practitioner_id: number; appointment_type_id: number | null; partner?: unknown;
}
interface Day {
  appointments: Visit[];
  clients: { id: number; full_name: string }[];
  practitioners: { id: number; full_name: string }[];
}
interface AppointmentType { id: number; name: string; tolerance_minutes: number | null }
interface PractitionerSettings { id: number; full_name: string; active: boolean; skill_appointment_type_ids: number[] | null; qualified_appointment_type_ids: number[] | null }

/** The booked visits of a day (yyyy-MM-dd), with the names they refer to. */
async function visitsOf(api: Api, day: Temporal.PlainDate | string) {
  const list = await api<Day>(`/appointments?start_date=${day}&end_date=${day}`);
  return { ...list, appointments: list.appointments.filter((visit) => visit.status === 'BOOKED') };
}

const instant = (iso: string) => Temporal.Instant.from(iso);
/** 24-hour Brisbane clock time of an instant, as the product writes it: "09:15". */
const clockOf = (iso: string) => instant(iso).toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });
const plusMinutes = (iso: string, minutes: number) => instant(iso).add({ minutes }).toString();
const overlaps = (a: Visit, b: Visit) => Date.parse(a.starts_at) < Date.parse(b.ends_at) && Date.parse(b.starts_at) < Date.parse(a.ends_at);
/** A visit the rules leave alone by itself: not on a route, not half of a two-carer visit. */
const atBookedTime = (visit: Visit) => visit.arrive_at === null || instant(visit.arrive_at).equals(instant(visit.starts_at));
const plain = (visit: Visit) => visit.route_id === null && !visit.partner && visit.client_id !== null;

/** Runs `test` on a new page logged in as the demo's administrator; a script error on the page fails it. */
async function asAdmin(test: (page: Page) => Promise<void>) {
  const { context, page } = await newPage(running.browser, running.product.url);
  await page.setViewportSize({ width: 1280, height: 900 });
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  try {
    await logIn(page, 'admin@demo.test');
    await test(page);
    expect(scriptErrors).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Opens a visit's details modal on its day's schedule. */
async function openVisit(page: Page, visit: Visit) {
  const day = instant(visit.starts_at).toZonedDateTimeISO(ZONE).toPlainDate();
  await page.goto(`/appointments?view=schedule&start=${day}&end=${day}&appointment=${visit.id}`);
  const modal = page.getByTestId('appointment-details-modal');
  await modal.waitFor();
  return modal;
}

/** Moves the visit by hand from its modal (to `practitionerName` and to `start`, when given) and answers the form. */
async function moveByHand(page: Page, visit: Visit, to: { practitionerName?: string; start?: string }) {
  const modal = await openVisit(page, visit);
  await modal.getByRole('button', { name: 'Move by hand' }).click();
  const move = modal.getByRole('form', { name: 'Move this visit' });
  if (to.practitionerName) await move.getByLabel('Practitioner').selectOption({ label: to.practitionerName });
  if (to.start) await move.getByLabel('Start time').fill(to.start);
  await move.getByRole('button', { name: 'Move', exact: true }).click();
  return move;
}

/** Picks `day` in the calendar of the date field whose button is `field`. */
async function pickDay(page: Page, field: ReturnType<Page['getByRole']>, day: Temporal.PlainDate) {
  await field.click();
  const cell = page.locator(`[role="gridcell"][data-day="${day}"]:not([data-outside]) button`);
  for (let step = 0; step < 2 && (await cell.count()) === 0; step++) await page.getByRole('button', { name: 'Go to the Next Month' }).click();
  await cell.click();
}

const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor();

/**
 * A demo client with just two visits on a coming weekday, far enough apart that the later can be brought to
 * `startOf(earlier)`, and a practitioner free then who is not on leave (the later's own when it can be, never one in
 * `notWith(earlier)`): the move then breaks only the client's own rule.
 */
async function clientVisitToMove(
  api: Awaited<ReturnType<typeof apiAs>>, startOf: (earlier: Visit) => string, notWith: (earlier: Visit) => number[] = () => [],
): Promise<{ earlier: Visit; later: Visit; client: string; moved: Visit; practitioner: PractitionerSettings } | null> {
  const { practitioners } = await api<{ practitioners: PractitionerSettings[] }>('/practitioners');
  for (let ahead = 3; ahead < 10; ahead++) {
    const day = demoWeekday(ahead);
    const [{ appointments, clients }, { leave }] = await Promise.all([
      visitsOf(api, day), api<{ leave: { practitioner_id: number }[] }>(`/practitioner_leave?start_date=${day}&end_date=${day}`),
    ]);
    const free = (practitionerId: number, visit: Visit) => !leave.some((entry) => entry.practitioner_id === practitionerId)
      && !appointments.some((other) => other.id !== visit.id && other.practitioner_id === practitionerId && overlaps(other, visit));
    for (const later of appointments.filter(plain)) {
      const theirs = appointments.filter((other) => other.client_id === later.client_id);
      const earlier = theirs.find((other) => other.id !== later.id && plain(other) && Date.parse(later.starts_at) - Date.parse(other.ends_at) >= 60 * 60_000);
      if (theirs.length !== 2 || !earlier) continue;
      const startsAt = startOf(earlier);
      const moved = { ...later, starts_at: startsAt, ends_at: plusMinutes(startsAt, (Date.parse(later.ends_at) - Date.parse(later.starts_at)) / 60_000) };
      const practitioner = [...practitioners].sort((a, b) => Number(b.id === later.practitioner_id) - Number(a.id === later.practitioner_id))
        .find((candidate) => candidate.active && !notWith(earlier).includes(candidate.id) && free(candidate.id, moved)
          && (later.appointment_type_id === null || (candidate.qualified_appointment_type_ids ?? []).includes(later.appointment_type_id)));
      if (practitioner) return { earlier, later, moved, practitioner, client: clients.find((client) => client.id === later.client_id)!.full_name };
    }
  }
  return null;
}

describe('Settings → Optimisation and Appointment types', () => {
  it('keeps the tolerance, the client gap, the fixed-before minutes and the balance choice; a type’s own tolerance is what its visits allow', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    const { optimization_settings: saved } = await api<{ optimization_settings: Record<string, unknown> }>('/optimization_settings');
    const day = demoWeekday(2);
    const [{ appointments }, { appointment_types: types }] = await Promise.all([visitsOf(api, day), api<{ appointment_types: AppointmentType[] }>('/appointment_types/all')]);
    // A type without its own tolerance, and a visit of it that is not on a route.
    const type = types.find((candidate) => candidate.tolerance_minutes === null && appointments.some((visit) => visit.appointment_type_id === candidate.id && plain(visit)))!;
    expect(type).toBeDefined();
    const visit = appointments.find((candidate) => candidate.appointment_type_id === type.id && plain(candidate))!;
    try {
      await asAdmin(async (page) => {
        await page.goto('/settings/optimization-settings');
        const form = page.getByRole('form', { name: 'Optimisation settings' });
        const tolerance = form.getByLabel('Arrivals may move up to');
        const clientGap = form.getByLabel('minutes between a client’s visits');
        const fixedBefore = form.getByLabel('stay as they are');
        const balance = form.getByRole('checkbox', { name: /^Balance the day between practitioners/ });
        await tolerance.fill('45');
        await clientGap.fill('90');
        await fixedBefore.fill('60');
        await balance.check();
        await form.getByRole('button', { name: 'Save' }).click();
        await toast(page, 'The optimisation settings have been saved.');

        await page.reload();
        await tolerance.waitFor();
        expect([await tolerance.inputValue(), await clientGap.inputValue(), await fixedBefore.inputValue(), await balance.isChecked()]).toEqual(['45', '90', '60', true]);

        // The type's own tolerance; the others show the business's new one as theirs.
        await page.goto('/settings/appointment-types');
        const own = page.getByLabel(`Tolerance of ${type.name} in minutes`);
        await own.fill('75');
        await page.getByTestId('appointment-type-row').filter({ has: own }).getByRole('button', { name: 'Save' }).click();
        await toast(page, 'The appointment type has been updated.');
        await page.reload();
        await expect.poll(() => own.inputValue()).toBe('75');
        await expect.poll(() => own.getAttribute('placeholder')).toBe('45');

        // A visit of the type may now arrive up to 75 minutes either side of its booked time.
        const modal = await openVisit(page, visit);
        await modal.getByRole('button', { name: 'Edit arrival time' }).click();
        const from = clockOf(plusMinutes(visit.starts_at, -75));
        const to = clockOf(plusMinutes(visit.starts_at, 75));
        expect(await modal.getByTestId('arrival-time-hint').innerText()).toMatch(new RegExp(`^Allowed: ${from} to ${to} \\(75 minutes either side of the booked time\\)`));
      });
    } finally {
      const { tolerance_minutes, client_gap_minutes, fixed_before_minutes, balance_workload } = saved;
      await api('/optimization_settings', { method: 'PUT', body: JSON.stringify({ tolerance_minutes, client_gap_minutes, fixed_before_minutes, balance_workload }) });
      await api(`/appointment_types/${type.id}`, { method: 'PUT', body: JSON.stringify({ tolerance_minutes: null }) });
    }
  });
});

describe('changes by hand keep the rules', () => {
  it('the arrival editor refuses a time beyond the tolerance, in the rule’s words, and the visit keeps its time', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    const day = demoWeekday(2);
    const [{ appointments }, { appointment_types: types }] = await Promise.all([visitsOf(api, day), api<{ appointment_types: AppointmentType[] }>('/appointment_types/all')]);
    // The business's tolerance (30 minutes) holds for a type without its own.
    const ownTolerance = new Set(types.filter((type) => type.tolerance_minutes !== null).map((type) => type.id));
    const visit = appointments.find((candidate) => plain(candidate) && atBookedTime(candidate) && !ownTolerance.has(candidate.appointment_type_id!))!;
    expect(visit).toBeDefined();
    const [from, to, late] = [clockOf(plusMinutes(visit.starts_at, -30)), clockOf(plusMinutes(visit.starts_at, 30)), clockOf(plusMinutes(visit.starts_at, 45))];

    await asAdmin(async (page) => {
      const modal = await openVisit(page, visit);
      const shown = await modal.getByTestId('arrival-time').innerText();
      await modal.getByRole('button', { name: 'Edit arrival time' }).click();
      await modal.getByLabel('Arrival time').fill(late);
      await modal.getByLabel('Arrival time').press('Enter');
      await expect.poll(() => modal.getByRole('alert').innerText())
        .toMatch(new RegExp(`^The arrival time must be between ${from} and ${to}(?: on [^:]+)?: within 30 minutes of the booked time`));
      await modal.getByRole('button', { name: 'Cancel', exact: true }).click();

      await page.reload();
      await expect.poll(() => page.getByTestId('appointment-details-modal').getByTestId('arrival-time').innerText()).toBe(shown);
    });
    const { appointment } = await api<{ appointment: Visit }>(`/appointments/${visit.id}`);
    expect(atBookedTime(appointment)).toBe(true);
  });

  it('moving a visit next to the same client’s other visit is refused in words, and the visit stays', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    // The later visit brought to fifteen minutes after the earlier ends: in order, but closer than the hour the rules
    // ask for. It goes to a practitioner free then (its own when it is), so only the gap is wrong.
    const chosen = await clientVisitToMove(api, (earlier) => plusMinutes(earlier.ends_at, 15));
    expect(chosen).not.toBeNull();
    const { earlier, later, moved, practitioner, client } = chosen!;
    const to = clockOf(moved.starts_at);

    await asAdmin(async (page) => {
      const move = await moveByHand(page, later, { practitionerName: practitioner.id === later.practitioner_id ? undefined : practitioner.full_name, start: to });
      await expect.poll(() => move.getByRole('alert').innerText(), { timeout: 10_000 }).toMatch(new RegExp(
        `^This change would break the rules of home care: ${escaped(client)}'s visits at ${clockOf(earlier.starts_at)} and ${to} are less than 1 h apart \\(end to start\\)\\.`,
      ));
    });
    const { appointment } = await api<{ appointment: Visit }>(`/appointments/${later.id}`);
    expect(appointment.starts_at).toBe(later.starts_at);
  });

  it('moving a visit to overlap the same client’s other visit, with another practitioner, is refused in words', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    // Five minutes after the earlier visit starts, with someone else: two practitioners in the client's home at once
    // (fifteen was no overlap when the earlier visit was a 15-minute one, and the gap rule spoke instead).
    const chosen = await clientVisitToMove(api, (earlier) => plusMinutes(earlier.starts_at, 5), (earlier) => [earlier.practitioner_id]);
    expect(chosen).not.toBeNull();
    const { earlier, later, moved, practitioner, client } = chosen!;
    const to = clockOf(moved.starts_at);

    await asAdmin(async (page) => {
      const move = await moveByHand(page, later, { practitionerName: practitioner.id === later.practitioner_id ? undefined : practitioner.full_name, start: to });
      await expect.poll(() => move.getByRole('alert').innerText(), { timeout: 10_000 }).toMatch(new RegExp(
        `^This change would break the rules of home care: ${escaped(client)} has two visits at once: ${clockOf(earlier.starts_at)}–\\d\\d:\\d\\d with .+ and ${to}–\\d\\d:\\d\\d with ${escaped(practitioner.full_name)}\\.`,
      ));
    });
    const { appointment } = await api<{ appointment: Visit }>(`/appointments/${later.id}`);
    expect(appointment.starts_at).toBe(later.starts_at);
  });

  it('a practitioner excluded on the client modal cannot be given the client’s visit', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    const day = demoWeekday(4);
    const [{ appointments, clients }, { practitioners }, { leave }] = await Promise.all([
      visitsOf(api, day),
      api<{ practitioners: PractitionerSettings[] }>('/practitioners'),
      api<{ leave: { practitioner_id: number }[] }>(`/practitioner_leave?start_date=${day}&end_date=${day}`),
    ]);
    // A visit, and another practitioner who delivers its type and is free at its time (not on leave, no visit then): the
    // exclusion alone stands in the way.
    let chosen: { visit: Visit; other: PractitionerSettings } | null = null;
    for (const visit of appointments.filter(plain)) {
      const other = practitioners.find((practitioner) => practitioner.active && practitioner.id !== visit.practitioner_id
        && !leave.some((entry) => entry.practitioner_id === practitioner.id)
        && (practitioner.skill_appointment_type_ids === null || practitioner.skill_appointment_type_ids.includes(visit.appointment_type_id!))
        && appointments.some((theirs) => theirs.practitioner_id === practitioner.id)
        && !appointments.some((theirs) => theirs.practitioner_id === practitioner.id && overlaps(theirs, visit)));
      if (other) {
        chosen = { visit, other };
        break;
      }
    }
    expect(chosen).not.toBeNull();
    const { visit, other } = chosen!;
    const client = clients.find((candidate) => candidate.id === visit.client_id)!.full_name;
    const { client: before } = await api<{ client: { preferred_practitioner_ids: number[]; excluded_practitioner_ids: number[] } }>(`/clients/${visit.client_id}`);

    try {
      await asAdmin(async (page) => {
        await page.goto(`/clients?client=${visit.client_id}`);
        const clientModal = page.getByTestId('client-details-modal');
        const choice = clientModal.getByRole('form', { name: 'Practitioners' });
        await choice.getByTestId('multiselect-Excluded').click();
        await page.getByRole('option', { name: other.full_name, exact: true }).click();
        await page.keyboard.press('Escape');
        await choice.getByRole('button', { name: 'Save practitioners' }).click();
        await expect.poll(() => choice.getByTestId('client-excluded-practitioners').getByTestId('multiselect-tag').allInnerTexts()).toEqual([other.full_name]);

        const move = await moveByHand(page, visit, { practitionerName: other.full_name });
        await expect.poll(() => move.getByRole('alert').innerText(), { timeout: 10_000 })
          .toContain(`${client} has asked not to be visited by ${other.full_name}`);
      });
      const { appointment } = await api<{ appointment: Visit & { practitioner: { id: number } } }>(`/appointments/${visit.id}`);
      expect(appointment.practitioner.id).toBe(visit.practitioner_id);
    } finally {
      await api(`/clients/${visit.client_id}/update_practitioners`, {
        method: 'PUT', body: JSON.stringify({ preferred_practitioner_ids: before.preferred_practitioner_ids, excluded_practitioner_ids: before.excluded_practitioner_ids }),
      });
    }
  });
});

describe('leave', () => {
  it('leave added in Settings → Practitioners marks that day’s visits on the schedule and counts them on the dashboard; removing it clears both', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    const day = demoWeekday(5);
    const [{ appointments, practitioners }, { leave }] = await Promise.all([
      visitsOf(api, day), api<{ leave: { practitioner_id: number }[] }>(`/practitioner_leave?start_date=${day}&end_date=${day}`),
    ]);
    // The practitioner with the most visits that day, not already on leave then.
    const counts = new Map<number, number>();
    for (const visit of appointments) counts.set(visit.practitioner_id, (counts.get(visit.practitioner_id) ?? 0) + 1);
    const [practitionerId, count] = [...counts].filter(([id]) => !leave.some((entry) => entry.practitioner_id === id)).sort((a, b) => b[1] - a[1])[0];
    expect(count).toBeGreaterThan(1);
    const name = practitioners.find((practitioner) => practitioner.id === practitionerId)!.full_name;
    const onLeaveBefore = (await api<{ overview: { visits_on_leave: { count: number } } }>('/dashboard')).overview.visits_on_leave.count;
    const when = `${formatDay(day)} (all day)`;

    const lane = (page: Page) => page.getByTestId('schedule-lane').and(page.locator(`[aria-label="${name}"]`));
    const laneLabels = (page: Page) => lane(page).getByTestId('schedule-block').evaluateAll((blocks) => blocks.map((block) => block.getAttribute('aria-label')!));
    const tileFigure = (page: Page) => page.getByTestId('tile-visits-on-leave').getByTestId('tile-figure').innerText();
    const editDialog = async (page: Page) => {
      await page.goto('/settings/practitioners');
      await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
      return page.getByTestId('practitioner-edit-dialog');
    };
    try {
      await asAdmin(async (page) => {
        let edit = await editDialog(page);
        await edit.getByRole('button', { name: 'Add leave' }).click();
        const form = edit.getByRole('form', { name: 'New leave' });
        await pickDay(page, form.getByRole('button', { name: /^First day/ }), day);
        await pickDay(page, form.getByRole('button', { name: /^Last day/ }), day);
        await form.getByLabel('Reason (optional)').fill('Training day');
        await form.getByRole('button', { name: 'Add', exact: true }).click();
        await edit.getByTestId('leave-row').filter({ hasText: `${when} · Training day` }).waitFor();
        await edit.getByRole('button', { name: 'Close', exact: true }).click();

        // Every visit of theirs that day is marked, with the rule's words, and their lane counts them.
        await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
        await expect.poll(() => lane(page).getByTestId('lane-on-leave').innerText()).toBe(`${count} visits booked while on leave`);
        expect(await lane(page).getByTestId('block-on-leave').count()).toBe(count);
        await expect.poll(async () => (await laneLabels(page)).filter((label) =>
          !label.includes(', booked while the practitioner is on leave') || !label.includes(` is booked with ${name}, who is on leave all day.`))).toEqual([]);
        await page.goto('/dashboard');
        await expect.poll(() => tileFigure(page)).toBe(String(onLeaveBefore + count));

        edit = await editDialog(page);
        await edit.getByRole('button', { name: `Remove leave ${when}` }).click();
        await page.getByRole('alertdialog', { name: 'Remove leave' }).getByRole('button', { name: 'Remove', exact: true }).click();
        await edit.getByText('No leave from today on.').waitFor();
        await edit.getByRole('button', { name: 'Close', exact: true }).click();

        await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
        await lane(page).getByTestId('schedule-block').first().waitFor();
        await expect.poll(async () => (await laneLabels(page)).filter((label) => label.includes('on leave'))).toEqual([]);
        expect(await lane(page).getByTestId('lane-on-leave').count()).toBe(0);
        expect(await lane(page).getByTestId('block-on-leave').count()).toBe(0);
        await page.goto('/dashboard');
        await expect.poll(() => tileFigure(page)).toBe(String(onLeaveBefore));
      });
    } finally {
      // Whatever the test left (it failed half-way): its leave goes.
      const { leave: left } = await api<{ leave: { id: number; source: string }[] }>(`/practitioner_leave?practitioner_id=${practitionerId}&start_date=${day}&end_date=${day}`);
      for (const entry of left.filter((entry) => entry.source === 'manual')) await api(`/practitioner_leave/${entry.id}`, { method: 'DELETE' });
    }
  });
});

describe('optimising', () => {
  it('a day before today is refused in words in the Optimise dialog, and nothing runs', async () => {
    const api = await apiAs(running.product.url, 'admin@demo.test');
    let day = Temporal.Now.plainDateISO(ZONE).subtract({ days: 1 });
    while (day.dayOfWeek > 5) day = day.subtract({ days: 1 });
    await asAdmin(async (page) => {
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('day-schedule').waitFor();
      const dialog = await openOptimiseDialog(page);
      expect(await dialog.getByTestId('date-hint').innerText()).toMatch(/ has passed\. Days before today cannot be optimised: their visits have happened\.$/);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await expect.poll(() => dialog.getByRole('alert').allInnerTexts()).toContain('Days before today cannot be optimised: their visits have happened.');
      expect(await dialog.getByTestId('optimise-step').getAttribute('data-step')).toBe('configure');
      expect(await dialog.getByTestId('optimization-progress').count()).toBe(0);
    });
    expect((await api<{ routes: unknown[] }>(`/routes?date=${day}`)).routes).toEqual([]);
  });

  it('an applied optimisation undone puts every visit back at the time and practitioner it had', async () => {
    const day = demoWeekday(6);
    /** Each visit on the lanes as "practitioner: HH:mm client", in order. */
    const shownVisits = (page: Page) => page.getByTestId('schedule-lane').evaluateAll((lanes) => lanes.flatMap((lane) =>
      [...lane.querySelectorAll('[data-testid="schedule-block"]')].map((block) => `${lane.getAttribute('aria-label')}: ${/^\d\d:\d\d [^(,]+/.exec(block.getAttribute('aria-label')!)![0].replace(/ On leave ?$/, '').trim()}`)).sort());
    await asAdmin(async (page) => {
      await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
      await page.getByTestId('schedule-block').first().waitFor();
      const before = await shownVisits(page);
      const dialog = await openOptimiseDialog(page);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await dialog.getByTestId('proposal-kpis').waitFor({ timeout: 60_000 });
      expect(await dialog.getByTestId('proposal-change').count()).toBeGreaterThan(0);
      await dialog.getByRole('button', { name: 'Apply' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 20_000 });
      await toast(page, /^Optimisation of .* applied: \d+ visits? changed/);
      await expect.poll(() => shownVisits(page)).not.toEqual(before);

      await page.getByRole('button', { name: /^Undo optimisation for / }).first().click();
      await page.getByRole('alertdialog', { name: 'Undo this optimisation?' }).getByRole('button', { name: 'Undo optimisation' }).click();
      await toast(page, /was undone: its visits and routes are back as they were\.$/);
      await expect.poll(() => shownVisits(page)).toEqual(before);
      // The day had no routes before: it has none again (the routes are read apart from the visits).
      await expect.poll(() => page.getByTestId('route-mark').count()).toBe(0);
    });
  });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
