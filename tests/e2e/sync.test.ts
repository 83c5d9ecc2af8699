// Practice-management sync as a person meets it, against the real product and its in-process Cliniko
// sandbox: import through the header's modal and see the counts; move an appointment's arrival time, export
// through the modal (with its confirmation) and see the appointment moved in the sandbox.
import type { Browser, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { launchBrowser, logIn, newPage } from './support/browser';
import { sandboxApiUrl, sandboxGet, type SandboxAppointment } from './support/sandbox';
import { freePort, startProduct, type RunningProduct } from './support/server';

let product: RunningProduct;
let browser: Browser;
let sandboxUrl: string;

beforeAll(async () => {
  const sandboxPort = await freePort();
  sandboxUrl = sandboxApiUrl(sandboxPort);
  [product, browser] = await Promise.all([startProduct({ SANDBOX_PORT: String(sandboxPort) }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await product?.stop();
});

/** The product's API as the admin, for setting up and checking what the browser did. */
const adminApi = () => apiAs(product.url, 'admin@demo.test');

const sandboxAppointment = (externalId: string) => sandboxGet<SandboxAppointment>(sandboxUrl, `/individual_appointments/${externalId}`);

async function runFromModal(page: Page, kind: 'Import' | 'Export') {
  await page.getByRole('button', { name: kind, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${kind} appointments` });
  await dialog.getByRole('button', { name: `Start ${kind.toLowerCase()}` }).click();
  if (kind === 'Export') await page.getByRole('alertdialog').getByRole('button', { name: 'Yes, export' }).click();
  await expect.poll(() => dialog.getByTestId('job-status').innerText(), { timeout: 60_000, interval: 500 }).toBe('Complete');
  return dialog;
}

interface ApiAppointment { id: number; starts_at: string; ends_at: string; arrive_at: string | null; route_id: number | null; status: string; practitioner_id: number }
interface SyncSettings { enable_auto_export: boolean; ahead_days: number; filters: { practitioner_ids: number[]; appointment_type_ids: number[]; business_location_ids: number[] } }

describe('sync through the modals', () => {
  it('imports through the Import modal and shows the counts', async () => {
    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      const dialog = await runFromModal(page, 'Import');
      for (const label of ['Created', 'Updated', 'Cancelled']) {
        expect(await dialog.getByTestId(`count-${label}`).innerText()).toMatch(/^\d+$/);
      }
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
      await page.goto('/imports');
      await expect.poll(() => page.getByTestId('import-row').first().innerText()).toContain('Complete');
    } finally {
      await context.close();
    }
  });

  it('exports a changed arrival time and the sandbox’s appointment moves', async () => {
    const api = await adminApi();
    const { sync_settings: settings } = await api<{ sync_settings: SyncSettings }>('/sync_settings');
    const today = Temporal.Now.plainDateISO('Australia/Brisbane');
    // The export modal's prefilled range: today..today+7, or today..today+ahead_days with automatic export on.
    const end = today.add({ days: settings.enable_auto_export ? settings.ahead_days : 7 });
    const query = new URLSearchParams({ start_date: today.add({ days: 1 }).toString(), end_date: end.toString() });
    const { appointments } = await api<{ appointments: ApiAppointment[] }>(`/appointments?${query}`);
    const practitionerFilter = settings.filters.practitioner_ids;
    const candidates = appointments.filter((appointment) =>
      appointment.route_id === null && appointment.status === 'BOOKED' &&
      (practitionerFilter.length === 0 || practitionerFilter.includes(appointment.practitioner_id)));
    // The first imported, unrouted visit whose arrival may move 25 minutes later within the rules of home care (on
    // some days of the sandbox's data the first one would then overlap its practitioner's next visit: 409).
    let chosen: { appointment: ApiAppointment; externalId: string; before: { starts_at: string; ends_at: string }; newArrival: string } | null = null;
    for (const appointment of candidates) {
      const details = await api<{ resource_map: { external_id: string } | null }>(`/appointments/${appointment.id}/extra_details`);
      if (!details.resource_map) continue;
      const before = await sandboxAppointment(details.resource_map.external_id);
      const newArrival = Temporal.Instant.from(appointment.starts_at).add({ minutes: 25 }).toString();
      try {
        await api(`/appointments/${appointment.id}/update_arrival_time`, { method: 'PUT', body: JSON.stringify({ arrive_at: newArrival }) });
      } catch (error) {
        if (String(error).includes('answered 409')) continue;
        throw error;
      }
      chosen = { appointment, externalId: details.resource_map.external_id, before, newArrival };
      break;
    }
    expect(chosen, 'an imported, unrouted appointment in the export range whose arrival may move').not.toBeNull();
    const { appointment, externalId, before, newArrival } = chosen!;

    const { context, page } = await newPage(browser, product.url);
    try {
      await logIn(page, 'admin@demo.test');
      const dialog = await runFromModal(page, 'Export');
      expect(Number(await dialog.getByTestId('count-Exported').innerText())).toBeGreaterThanOrEqual(1);
    } finally {
      await context.close();
    }

    const after = await sandboxAppointment(externalId);
    expect(Temporal.Instant.from(after.starts_at).equals(Temporal.Instant.from(newArrival))).toBe(true);
    const duration = (iso: { starts_at: string; ends_at: string }) => Date.parse(iso.ends_at) - Date.parse(iso.starts_at);
    expect(duration(after)).toBe(duration(before));
    const details = await api<{ export_history: unknown[] }>(`/appointments/${appointment.id}/extra_details`);
    expect(details.export_history.length).toBeGreaterThanOrEqual(1);
  });
});
