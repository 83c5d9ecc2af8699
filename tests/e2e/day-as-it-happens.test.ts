// The coordinator's live desk in Chromium (issue 26): a visit moved in the practice management system to 3 minutes
// ago and imported is overdue on today's schedule (overdue after 1 minute); a practitioner's Arrived, recorded through the API, appears on the
// coordinator's open schedule without a reload (it is read again every 15 s), and the overdue mark goes. At 1,280 px
// (the lanes) and at 390 px (the phone's list).
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it, beforeAll } from 'vitest';
import { apiAs, type Api } from './support/api';
import { logIn, newPage } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductAndBrowser } from './support/running';
import { sandboxApiUrl } from './support/sandbox';
import { freePort } from './support/server';
import { SANDBOX_DEMO_API_KEY } from '../../server/src/pms/sandbox';

const ZONE = 'Australia/Brisbane';
const sandboxPort = await freePort();
const running = useProductAndBrowser({ SANDBOX_PORT: String(sandboxPort) });

interface Listed { id: number; starts_at: string; client_id: number | null; visit_state: string }
interface ListBody { appointments: Listed[]; clients: { id: number; full_name: string }[] }

let api: Api;
let visitId: number;
let clientName: string;
/** The visit's start on Brisbane's clock, as its block shows it (the client may have another visit today). */
let startsClock: string;
const today = Temporal.Now.plainDateISO(ZONE).toString();

async function sandboxPatch(path: string, body: object) {
  const response = await fetch(`${sandboxApiUrl(sandboxPort)}${path}`, {
    method: 'PATCH',
    headers: {
      Authorization: `Basic ${Buffer.from(`${SANDBOX_DEMO_API_KEY}:`).toString('base64')}`,
      'Content-Type': 'application/json', Accept: 'application/json', 'User-Agent': 'Rounds e2e (e2e@rounds.test)',
    },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`sandbox PATCH ${path} answered ${response.status}: ${await response.text()}`);
}

beforeAll(async () => {
  api = await apiAs(running.product.url, 'admin@demo.test');
  // A visit of a weekday ahead, moved in the PMS to today, 3 minutes ago, and imported; overdue after a minute (the
  // setting at its least), so it is today's and overdue at any hour but the first three minutes after midnight (25
  // minutes ago, overdue by the default 15, was yesterday's for the first 25).
  await api('/business_account', { method: 'PATCH', body: JSON.stringify({ overdue_after_minutes: 1 }) });
  const day = demoWeekday(3).toString();
  const ahead = await api<ListBody>(`/appointments?start_date=${day}&end_date=${day}`);
  const chosen = ahead.appointments.find((item) => item.client_id !== null)!;
  clientName = ahead.clients.find((client) => client.id === chosen.client_id)!.full_name;
  const extra = await api<{ resource_map: { external_id: string } | null }>(`/appointments/${chosen.id}/extra_details`);
  const starts = Temporal.Now.instant().subtract({ minutes: 3 }).round({ smallestUnit: 'minute', roundingMode: 'floor' });
  startsClock = starts.toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });
  await sandboxPatch(`/individual_appointments/${extra.resource_map!.external_id}`, {
    starts_at: starts.toString(), ends_at: starts.add({ minutes: 45 }).toString(),
  });
  const created = await api<{ import: { id: number } }>('/imports', { method: 'POST', body: JSON.stringify({ start_date: today, end_date: today }) });
  for (let waited = 0; ; waited += 500) {
    const { import: job } = await api<{ import: { status: string; error_message: string | null } }>(`/imports/${created.import.id}`);
    if (job.status === 'COMPLETE') break;
    if (job.status === 'ERROR' || waited > 60_000) throw new Error(`the import of today did not complete: ${job.status} ${job.error_message}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  visitId = chosen.id;
}, 120_000);

let keys = 0;
const recordStep = (step: string) =>
  api(`/appointments/${visitId}/steps`, { method: 'POST', body: JSON.stringify({ step, idempotency_key: `e2e-desk-${Date.now()}-${(keys += 1)}` }) });

async function openToday(email: string, width: number, height: number): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await newPage(running.browser, running.product.url);
  await page.setViewportSize({ width, height });
  await logIn(page, email);
  await page.goto(`/appointments?view=schedule&start=${today}&end=${today}`);
  // A mark a reload would wipe.
  await page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });
  return { page, close: () => context.close() };
}

describe("the coordinator's live desk", () => {
  it('shows the overdue visit, then the Arrived recorded through the API, without a reload (1,280 px)', async () => {
    const listed = await api<ListBody>(`/appointments?start_date=${today}&end_date=${today}`);
    expect(listed.appointments.find((item) => item.id === visitId)).toMatchObject({ visit_state: 'not_started' });
    const { page, close } = await openToday('staff@demo.test', 1280, 900);
    try {
      // During the demo's working day its other visits of today, never checked in, are overdue too: the banner lists
      // the latest first, and this one (3 minutes late) may be among "and N more".
      const banner = page.getByTestId('overdue-banner');
      const block = page.locator(`[data-testid="schedule-block"][aria-label^=${JSON.stringify(`${startsClock} ${clientName}`)}]`);
      await expect.poll(() => block.getAttribute('data-overdue'), { timeout: 20_000 }).toBe('true');
      expect(await banner.textContent()).toMatch(new RegExp(`${clientName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not started|and \\d+ more`));
      expect(await block.getAttribute('aria-label')).toMatch(/Not started, \d{1,2} min late/);
      await page.screenshot({ path: '/tmp/day-as-it-happens-1280-before.png', fullPage: true });

      await recordStep('arrived');
      const started = Date.now();
      await expect.poll(() => block.getAttribute('data-state'), { timeout: 20_000, interval: 250 }).toBe('arrived');
      // Read again within 15 s (plus the request's own time).
      expect(Date.now() - started).toBeLessThan(17_000);
      expect(await block.getAttribute('data-overdue')).toBeNull();
      expect(await block.getByTestId('block-actual').textContent()).toMatch(/^Arrived \d\d:\d\d$/);
      expect(await banner.count() === 0 || !(await banner.textContent())!.includes(clientName)).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      await page.screenshot({ path: '/tmp/day-as-it-happens-1280-after.png', fullPage: true });
    } finally {
      await close();
    }
  });

  it('on a 390 px phone, Done appears in the list of the day without a reload', async () => {
    const { page, close } = await openToday('admin@demo.test', 390, 844);
    try {
      const named = new RegExp(`^${startsClock}–\\d\\d:\\d\\d ${clientName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      const item = page.getByTestId('day-agenda').getByTestId('schedule-block').and(page.getByRole('button', { name: named }));
      await expect.poll(() => item.getAttribute('data-state'), { timeout: 20_000 }).toBe('arrived');
      await recordStep('done');
      await expect.poll(() => item.getAttribute('data-state'), { timeout: 20_000, interval: 250 }).toBe('done');
      expect(await item.getByTestId('block-actual').textContent()).toMatch(/^Arrived \d\d:\d\d · Done \d\d:\d\d$/);
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
      await page.screenshot({ path: '/tmp/day-as-it-happens-390.png', fullPage: true });
    } finally {
      await close();
    }
  });
});
