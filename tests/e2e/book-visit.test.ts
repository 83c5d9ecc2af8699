// Booking a visit in Rounds, written through to the Cliniko sandbox, in a real browser against the real server — as a
// coordinator (staff@demo.test) at 1280 px and at 390 px: "New visit" on a coming weekday, a demo client, a type the
// day's practitioners deliver, the morning, Best fit → the first fit is booked, it shows on its practitioner's lane
// marked "Saving to Cliniko…" until saved, and the sandbox holds it with the right practitioner, type, client and time.
// Then it is rescheduled to the next weekday by best fit (the sandbox moves it), and cancelled with a reason (the
// sandbox has it cancelled with that reason).
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { apiAs, type Api } from './support/api';
import { describeFindings, seriousViolations } from './support/axe';
import { logIn } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductWithSandbox } from './support/running';
import { idOfLink, sandboxGet, type SandboxAppointment } from './support/sandbox';

const { running, sandbox } = useProductWithSandbox();
const ZONE = 'Australia/Brisbane';

interface ListBody {
  appointments: { id: number; client_id: number | null; practitioner_id: number; appointment_type_id: number | null; starts_at: string; status: string }[];
  clients: { id: number; full_name: string }[];
}
interface ClientItem { id: number; full_name: string; has_address: boolean }
interface AppointmentType { id: number; name: string; duration: number }
interface SandboxVisit extends SandboxAppointment {
  cancelled_at: string | null;
  cancellation_reason: number | null;
  patient: { links: { self: string } };
  appointment_type: { links: { self: string } };
}

/** 24-hour Brisbane clock time of an instant, as the schedule writes it: "09:15". */
const clockOf = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });
const nextWeekday = (day: Temporal.PlainDate) => {
  let next = day.add({ days: 1 });
  while (next.dayOfWeek > 5) next = next.add({ days: 1 });
  return next;
};
const toast = (page: Page, text: string | RegExp) => page.getByTestId('toast').filter({ hasText: text }).first().waitFor({ timeout: 20_000 });

/** Picks `day` in the calendar of the date field whose button is `field`. */
async function pickDay(page: Page, field: Locator, day: Temporal.PlainDate) {
  await field.click();
  const cell = page.locator(`[role="gridcell"][data-day="${day}"]:not([data-outside]) button`);
  for (let step = 0; step < 2 && (await cell.count()) === 0; step++) await page.getByRole('button', { name: 'Go to the Next Month' }).click();
  await cell.click();
}

/** A client with an address and no visit that day, and the type most booked that day (its practitioners deliver it). */
async function choices(api: Api, day: Temporal.PlainDate): Promise<{ client: ClientItem; type: AppointmentType }> {
  const [list, { clients }, { appointment_types: types }] = await Promise.all([
    api<ListBody>(`/appointments?start_date=${day}&end_date=${day}`),
    api<{ clients: ClientItem[] }>('/clients?per_page=50&sort=name'),
    api<{ appointment_types: AppointmentType[] }>('/appointment_types/all'),
  ]);
  const busy = new Set(list.appointments.map((visit) => visit.client_id));
  const client = clients.find((candidate) => candidate.has_address && !busy.has(candidate.id) && !clients.some((other) => other !== candidate && other.full_name === candidate.full_name))!;
  const counts = new Map<number, number>();
  for (const visit of list.appointments) if (visit.appointment_type_id) counts.set(visit.appointment_type_id, (counts.get(visit.appointment_type_id) ?? 0) + 1);
  const typeId = [...counts].sort((a, b) => b[1] - a[1])[0][0];
  return { client, type: types.find((candidate) => candidate.id === typeId)! };
}

/** The sandbox's copy of a Rounds visit, once Rounds has saved it there. */
async function inSandbox(api: Api, appointmentId: number): Promise<SandboxVisit> {
  let externalId: string | undefined;
  await expect.poll(async () => {
    externalId = (await api<{ resource_map: { external_id: string } | null }>(`/appointments/${appointmentId}/extra_details`)).resource_map?.external_id;
    return externalId;
  }, { timeout: 30_000 }).toBeTruthy();
  return sandboxGet<SandboxVisit>(sandbox.url, `/individual_appointments/${externalId}`);
}

const sandboxName = async (link: string, kind: 'practitioners' | 'patients') => {
  const found = await sandboxGet<{ first_name: string; last_name: string }>(sandbox.url, `/${kind}/${idOfLink(link)}`);
  return `${found.first_name} ${found.last_name}`;
};

async function bookRescheduleCancel(width: number, day: Temporal.PlainDate) {
  const api = await apiAs(running.product.url, 'staff@demo.test');
  const { client, type } = await choices(api, day);
  const context = await running.browser.newContext({ baseURL: running.product.url, timezoneId: ZONE, locale: 'en-AU', viewport: { width, height: width < 768 ? 844 : 900 }, bypassCSP: true });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await logIn(page, 'staff@demo.test');
    await page.goto(`/appointments?view=schedule&start=${day}&end=${day}`);
    await page.getByTestId(width < 768 ? 'day-agenda' : 'day-schedule').waitFor();

    // New visit: the client by name, the type, the morning (the dialog's default), Best fit.
    await page.getByRole('button', { name: 'New visit', exact: true }).click();
    const dialog = page.getByTestId('new-visit-dialog');
    await dialog.getByRole('combobox', { name: 'Client' }).fill(client.full_name);
    await page.getByRole('option', { name: new RegExp(`^${client.full_name}`) }).first().click();
    await dialog.getByLabel('Appointment type').selectOption({ label: `${type.name} (${type.duration} min)` });
    expect(await dialog.getByRole('radio', { name: 'Morning (07:00–12:00)' }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Find the best fits' }).click();
    const fit = dialog.getByTestId('best-fit').first();
    await fit.waitFor({ timeout: 20_000 });
    const fitText = (await fit.textContent())!;
    const arrival = /Arrives (\d\d:\d\d), \+\d+ min travel/.exec(fitText)![1];
    // Nothing serious for axe in the dialog with its choices (labels, radios, the collapsible "Why not others?").
    expect(describeFindings('New visit', await seriousViolations(page, { include: '[data-testid="new-visit-dialog"]' }))).toEqual([]);
    // On a phone the dialog is a sheet as wide as the screen, and nothing scrolls sideways.
    if (width < 768) {
      const box = (await dialog.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(await dialog.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Book' }).click();
    await toast(page, new RegExp(`^Booked ${client.full_name} with .+ — saving to Cliniko\\.$`));
    await dialog.waitFor({ state: 'detached' });

    // It is on the day at once, on the lane of the practitioner who was chosen, and its mark goes once Cliniko has it.
    const { appointments } = await api<ListBody>(`/appointments?start_date=${day}&end_date=${day}`);
    const booked = appointments.find((visit) => visit.client_id === client.id && visit.status === 'BOOKED')!;
    expect(booked, 'the booked visit is in the day').toBeDefined();
    expect(clockOf(booked.starts_at)).toBe(arrival);
    const { appointment } = await api<{ appointment: { practitioner: { full_name: string } } }>(`/appointments/${booked.id}`);
    expect(fitText.startsWith(appointment.practitioner.full_name)).toBe(true);
    const block = page.getByTestId('schedule-block').filter({ hasText: client.full_name });
    await block.waitFor();
    if (width >= 768) {
      await page.getByRole('listitem', { name: appointment.practitioner.full_name }).getByTestId('schedule-block').filter({ hasText: client.full_name }).waitFor();
    }
    await expect.poll(() => block.getByTestId('block-pms-write').or(block.getByTestId('pms-write-mark')).count(), { timeout: 30_000 }).toBe(0);

    // The sandbox holds it: the practitioner, the type, the client and the time.
    const created = await inSandbox(api, booked.id);
    expect(Temporal.Instant.from(created.starts_at).equals(Temporal.Instant.from(booked.starts_at))).toBe(true);
    expect(await sandboxName(created.practitioner.links.self, 'practitioners')).toBe(appointment.practitioner.full_name);
    expect(await sandboxName(created.patient.links.self, 'patients')).toBe(client.full_name);
    const sandboxType = await sandboxGet<{ name: string }>(sandbox.url, `/appointment_types/${idOfLink(created.appointment_type.links.self)}`);
    expect(sandboxType.name).toBe(type.name);

    // Reschedule to the next weekday by best fit: the sandbox moves it.
    await block.click();
    const modal = page.getByTestId('appointment-details-modal');
    await expect.poll(() => modal.getByTestId('pms-write').getAttribute('data-state')).toBe('saved');
    await modal.getByRole('button', { name: 'Reschedule' }).click();
    const reschedule = modal.getByRole('form', { name: 'Reschedule this visit' });
    const nextDay = nextWeekday(day);
    await pickDay(page, reschedule.getByRole('button', { name: /^Day / }), nextDay);
    await reschedule.getByRole('button', { name: 'Best fit that day' }).click();
    const nextFit = reschedule.getByTestId('best-fit').first();
    await nextFit.waitFor({ timeout: 20_000 });
    await nextFit.getByRole('radio').check();
    await reschedule.getByLabel('Why (for the change log)').fill('The client asked for another day');
    await reschedule.getByRole('button', { name: 'Reschedule' }).click();
    await toast(page, /^Rescheduled to .+ — saving to Cliniko\.$/);
    await expect.poll(() => modal.getByTestId('pms-write').getAttribute('data-state'), { timeout: 30_000 }).toBe('saved');
    const { appointment: moved } = await api<{ appointment: { starts_at: string; practitioner: { full_name: string } } }>(`/appointments/${booked.id}`);
    expect(Temporal.Instant.from(moved.starts_at).toZonedDateTimeISO(ZONE).toPlainDate().equals(nextDay)).toBe(true);
    const afterMove = await inSandbox(api, booked.id);
    expect(Temporal.Instant.from(afterMove.starts_at).equals(Temporal.Instant.from(moved.starts_at))).toBe(true);
    expect(await sandboxName(afterMove.practitioner.links.self, 'practitioners')).toBe(moved.practitioner.full_name);

    // Cancel with a reason: cancelled in the sandbox with it.
    await modal.getByRole('button', { name: 'Cancel visit' }).click();
    const cancel = modal.getByRole('form', { name: 'Cancel this visit' });
    await cancel.getByRole('radio', { name: 'Sick' }).check();
    await cancel.getByLabel('Note').fill('In hospital');
    await cancel.getByRole('button', { name: 'Cancel visit' }).click();
    await toast(page, new RegExp(`^Visit with ${client.full_name} cancelled — saving to Cliniko\\.`));
    await expect.poll(async () => (await inSandbox(api, booked.id)).cancelled_at, { timeout: 30_000 }).not.toBeNull();
    expect((await inSandbox(api, booked.id)).cancellation_reason).toBe(30);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

describe('booking a visit written through to Cliniko', () => {
  it('at 1280 px: books by best fit, reschedules to another day and cancels, each in the sandbox', { timeout: 180_000 }, async () => {
    await bookRescheduleCancel(1280, demoWeekday(2));
  });

  it('at 390 px: the same on a phone, the dialog a sheet without sideways scrolling', { timeout: 180_000 }, async () => {
    await bookRescheduleCancel(390, demoWeekday(7));
  });
});
