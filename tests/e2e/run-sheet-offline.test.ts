// The practitioner's day on the phone without signal (issues 26 and 34): at 390 px, a visit of today goes On my way
// while online, then Arrived and Done with the network cut — the run sheet says the steps wait, keeps them across a
// reload (the service worker opens the app and the day without network) and across a log out without network (which
// ends the session on the server once the network is back) — and once the practitioner has logged in again they reach
// the server in order, once each, with the times they were tapped.
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { logIn } from './support/browser';
import { useProductWithSandbox } from './support/running';
import { idOfLink, sandboxGet, sandboxPatch, type SandboxAppointment, type SandboxPractitioner } from './support/sandbox';

const { running, sandbox } = useProductWithSandbox();

const ZONE = 'Australia/Brisbane';
interface ListItem { id: number; practitioner_id: number; starts_at: string }
interface VisitProgress { on_my_way_at: string | null; arrived_at: string | null; done_at: string | null }
interface Appointment { id: number; visit_state: string; visit: VisitProgress | null; client: { full_name: string } | null }

/** Moves one of the practitioner's coming visits (in the sandbox, as if booked so in Cliniko) to later today, and imports. */
async function bookTodayFor(practitionerEmail: string): Promise<{ id: number; client: string }> {
  const admin = await apiAs(running.product.url, 'admin@demo.test');
  const { user: me } = await (await apiAs(running.product.url, practitionerEmail))<{ user: { associated_practitioner_ids: number[] } }>('/auth/user');
  const { practitioners } = await admin<{ practitioners: { id: number; full_name: string }[] }>('/practitioners/all');
  const name = practitioners.find((practitioner) => practitioner.id === me.associated_practitioner_ids[0])!.full_name;
  const inSandbox = (await sandboxGet<{ practitioners: SandboxPractitioner[] }>(sandbox.url, '/practitioners?per_page=100')).practitioners
    .find((practitioner) => `${practitioner.first_name} ${practitioner.last_name}` === name)!;
  const now = Temporal.Now.zonedDateTimeISO(ZONE);
  const { individual_appointments: coming } = await sandboxGet<{ individual_appointments: SandboxAppointment[] }>(
    sandbox.url, `/individual_appointments?per_page=5&q[]=practitioner_id:=${inSandbox.id}&q[]=starts_at:>=${now.add({ days: 1 }).toInstant().toString()}`,
  );
  const original = coming[0];
  // Later today (on the day even just before midnight), as long as it was booked.
  const latest = now.with({ hour: 23, minute: 0, second: 0, millisecond: 0 });
  const start = Temporal.ZonedDateTime.compare(now.add({ minutes: 30 }), latest) < 0 ? now.add({ minutes: 30 }).round({ smallestUnit: 'minute', roundingMode: 'ceil' }) : latest;
  const length = Temporal.Instant.from(original.ends_at).since(Temporal.Instant.from(original.starts_at));
  await sandboxPatch(sandbox.url, `/individual_appointments/${idOfLink(original.id)}`, {
    starts_at: start.toInstant().toString(), ends_at: start.toInstant().add(length).toString(),
  });
  const today = now.toPlainDate().toString();
  const originalDay = Temporal.Instant.from(original.starts_at).toZonedDateTimeISO(ZONE).toPlainDate().toString();
  const { import: job } = await admin<{ import: { id: number } }>('/imports', { method: 'POST', body: JSON.stringify({ start_date: today, end_date: originalDay }) });
  await expect.poll(async () => (await admin<{ import: { status: string } }>(`/imports/${job.id}`)).import.status, { timeout: 60_000 }).toBe('COMPLETE');
  const { appointments } = await admin<{ appointments: ListItem[] }>(`/appointments?start_date=${today}&end_date=${today}`);
  const moved = appointments.find((item) => item.practitioner_id === me.associated_practitioner_ids[0] && Date.parse(item.starts_at) === start.epochMilliseconds)!;
  const { appointment } = await admin<{ appointment: Appointment }>(`/appointments/${moved.id}`);
  return { id: moved.id, client: appointment.client!.full_name };
}

describe("the practitioner's run sheet without signal", () => {
  it('keeps the steps taken offline, across a reload and a log out, and sends them in order with their times once logged in again', { timeout: 180_000 }, async () => {
    const visit = await bookTodayFor('practitioner@demo.test');
    const context = await running.browser.newContext({ baseURL: running.product.url, timezoneId: ZONE, locale: 'en-AU', viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    try {
      await logIn(page, 'practitioner@demo.test');
      await page.goto('/appointments?view=run-sheet');
      // The service worker is in charge of the page before the network goes (it keeps what the run sheet reads).
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 15_000 }).toBe(true);
      await page.reload();
      const stop = page.getByTestId('run-sheet-stop').filter({ hasText: visit.client });
      await stop.getByRole('button', { name: 'On my way' }).click();
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('on_my_way');

      await context.setOffline(true);
      const offlineFrom = Date.now();
      await stop.getByRole('button', { name: 'Arrived' }).click();
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('arrived');
      await stop.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('done');
      expect(await page.getByTestId('steps-waiting').innerText()).toMatch(/^2 steps waiting to send/);
      expect(await stop.getByTestId('visit-waiting').innerText()).toMatch(/^Waiting to send: Arrived \d\d:\d\d · Done \d\d:\d\d$/);

      // Still without network: the app opens again, with the day and the steps that wait.
      await page.reload();
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('done');
      expect(await page.getByTestId('steps-waiting').innerText()).toMatch(/^2 steps waiting to send/);
      const offlineUntil = Date.now();

      // Logging out, still without network, with the steps waiting: the phone asks, and keeps them for this user.
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('rounds.auth.token') ?? 'null') as string | null);
      await page.getByRole('button', { name: 'Open account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      const dialog = page.getByRole('alertdialog', { name: '2 steps not sent yet' });
      const keep = dialog.getByRole('button', { name: 'Log out, keep them on this phone' });
      await keep.waitFor();
      // No signal: nothing to send them over.
      expect(await dialog.getByRole('button', { name: 'Send them now, then log out' }).count()).toBe(0);
      await keep.click();
      await page.getByRole('button', { name: 'Log in' }).waitFor();
      await page.waitForTimeout(1_500);

      // Back online: the session logged out without signal ends on the server too, and the steps reach the server
      // once the practitioner has logged in again.
      await context.setOffline(false);
      await expect.poll(async () => (await fetch(`${running.product.url}/api/auth/user`, { headers: { Authorization: `Bearer ${token}` } })).status, { timeout: 15_000 }).toBe(401);
      await logIn(page, 'practitioner@demo.test');
      await page.goto('/appointments?view=run-sheet');
      await expect.poll(() => stop.getByTestId('visit-status').getAttribute('data-state')).toBe('done');
      await page.getByTestId('steps-waiting').waitFor({ state: 'detached', timeout: 30_000 });
      const admin = await apiAs(running.product.url, 'admin@demo.test');
      const { appointment } = await admin<{ appointment: Appointment }>(`/appointments/${visit.id}`);
      expect(appointment.visit_state).toBe('done');
      const at = (iso: string | null | undefined) => Date.parse(iso ?? '');
      // Each step kept the time it was tapped, not the time it reached the server.
      expect(at(appointment.visit?.arrived_at)).toBeGreaterThanOrEqual(offlineFrom - 1_000);
      expect(at(appointment.visit?.done_at)).toBeGreaterThanOrEqual(at(appointment.visit?.arrived_at));
      expect(at(appointment.visit?.done_at)).toBeLessThanOrEqual(offlineUntil);
      // Once each: the change log has one entry per step.
      const { versions } = await admin<{ versions: { object_changes: Record<string, unknown[]> }[] }>(`/appointments/${visit.id}/extra_details`);
      const stepEntries = versions.map((version) => version.object_changes.visit_state?.[1]).filter((state) => state === 'arrived' || state === 'done');
      expect(stepEntries.sort()).toEqual(['arrived', 'done']);
      expect(await stop.getByTestId('visit-status').getAttribute('data-state')).toBe('done');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
