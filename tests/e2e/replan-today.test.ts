// Re-planning the rest of today when a practitioner falls sick (issue 26), as the coordinator does it in Chromium: on
// today's schedule, "Unavailable from now" under the practitioner's lane (Sick, from now), then the Optimise dialog
// opens on today with Reassign; its proposal gives their remaining visits to the other practitioner and lists the
// clients whose arrival moves by 15 min or more, ticked to be told; Apply says how many are told. Then: the later
// visits are the other practitioner's, the morning's visits (done through steps) are as they were, the day checker
// finds no hard problem, and the SMTP sink received one message per told client, once, with the new time.
//
// Whenever and whatever weekday it runs: the business is put in a whole-hour zone where it is about 11:00 now; the day
// is emptied of the demo's visits (moved a week on in the practice management system and imported), and visits of a
// coming weekday are moved to today (two this morning and three this afternoon for one practitioner, one for the
// other) for clients with an email address, no availability and no practitioner rules; both practitioners work all day.
// At 390 px, the "… is unavailable" dialog and a proposal with its clients to tell are photographed into tmp/.
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, type Api } from './support/api';
import { describeFindings, seriousViolations } from './support/axe';
import { logIn } from './support/browser';
import { demoWeekday } from './support/demoDay';
import { useProductAndBrowser } from './support/running';
import { sandboxApiUrl, sandboxPatch } from './support/sandbox';
import { freePort } from './support/server';
import { startSmtpSink } from './support/smtpSink';

// The whole-hour zone where it is about 11:00 now (Etc/GMT zones count the other way: Etc/GMT-3 is UTC+3).
const offsetHours = ((11 - new Date().getUTCHours() + 36) % 24) - 12;
const ZONE = `Etc/GMT${offsetHours <= 0 ? '+' : '-'}${Math.abs(offsetHours)}`;
const TODAY = Temporal.Now.plainDateISO(ZONE);
/** Now to the 5 minutes before it, as the visits' reference. */
const NOW = Temporal.Instant.fromEpochMilliseconds(Math.floor(Date.now() / 300_000) * 300_000);
const at = (minutes: number) => NOW.add({ minutes });
const clockOf = (iso: string) => Temporal.Instant.from(iso).toZonedDateTimeISO(ZONE).toPlainTime().toString({ smallestUnit: 'minute' });
/** An arrival as the clients' messages write it: "1:30 pm". */
const timeOf = (iso: string) => new Intl.DateTimeFormat('en-AU', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: ZONE })
  .format(new Date(iso)).replace(/\u202f/g, ' ');
/** The demo's visits this long before/after now leave the day (moved a week on in the PMS). */
const CLEARED_DAYS = 7;

const mail = await startSmtpSink();
const sandboxPort = await freePort();
const running = useProductAndBrowser({ SANDBOX_PORT: String(sandboxPort), SMTP_URL: mail.url, OPTIMIZER_MAX_SEARCH_MS: '1000' });
afterAll(() => mail.close());

interface Listed {
  id: number; starts_at: string; ends_at: string; arrive_at: string | null; status: string; client_id: number | null;
  practitioner_id: number; partner: unknown; visit_state: string;
}
interface ListBody { appointments: Listed[]; practitioners: { id: number; full_name: string }[] }
interface Client {
  id: number; first_name: string; full_name: string; email: string | null; availability: unknown[];
  preferred_practitioner_ids: number[]; excluded_practitioner_ids: number[];
}
interface Visit { id: number; arrive_at: string | null; practitioner: { id: number }; visit_state: string; visit: unknown }
interface Chosen { id: number; client: Client; startsAt: Temporal.Instant }

let admin: Api;
let businessName: string;
let sick: { id: number; name: string };
let other: { id: number; name: string; firstName: string };
/** The sick practitioner's visits done this morning, and those left this afternoon; the other's visit. */
let morning: Chosen[];
let afternoon: Chosen[];
let othersVisit: Chosen;

const until = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 250))) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
  }
};

async function importDays(first: Temporal.PlainDate, last: Temporal.PlainDate) {
  const created = await admin<{ import: { id: number } }>('/imports', { method: 'POST', body: JSON.stringify({ start_date: first.toString(), end_date: last.toString() }) });
  const job = await until('the import', () => admin<{ import: { status: string; error_message: string | null } }>(`/imports/${created.import.id}`).then((body) => body.import),
    (current) => current.status === 'COMPLETE' || current.status === 'ERROR', 120_000);
  if (job.status !== 'COMPLETE') throw new Error(`the import did not complete: ${job.error_message}`);
}

const externalId = async (id: number) => (await admin<{ resource_map: { external_id: string } | null }>(`/appointments/${id}/extra_details`)).resource_map!.external_id;
const moveInPms = async (id: number, startsAt: Temporal.Instant, endsAt: Temporal.Instant) =>
  sandboxPatch(sandboxApiUrl(sandboxPort), `/individual_appointments/${await externalId(id)}`, { starts_at: startsAt.toString(), ends_at: endsAt.toString() });

let stepKeys = 0;
const recordStep = (id: number, step: 'arrived' | 'done', when: Temporal.Instant) => admin(`/appointments/${id}/steps`, {
  method: 'POST', body: JSON.stringify({ step, at: when.toString(), idempotency_key: `e2e-replan-${process.pid}-${(stepKeys += 1)}` }),
});
const visit = async (id: number) => (await admin<{ appointment: Visit }>(`/appointments/${id}`)).appointment;
const hardIssues = async () => (await admin<{ issues: { hard: boolean; message: string; appointment_ids: number[] }[] }>(`/schedule/issues?date=${TODAY}`))
  .issues.filter((issue) => issue.hard);

beforeAll(async () => {
  admin = await apiAs(running.product.url, 'admin@demo.test');
  // The visits to bring to today: a coming weekday's, of clients with an email, no availability and no practitioner
  // rules, one client each; the practitioner with the most is the one who falls sick.
  const source = demoWeekday(3).toString();
  const ahead = await admin<ListBody>(`/appointments?start_date=${source}&end_date=${source}`);
  const clients = new Map<number, Client>();
  const candidates = ahead.appointments.filter((item) => item.status === 'BOOKED' && item.client_id !== null && !item.partner);
  await Promise.all([...new Set(candidates.map((item) => item.client_id!))]
    .map(async (id) => clients.set(id, (await admin<{ client: Client }>(`/clients/${id}`)).client)));
  const plain = (client: Client) => (client.email ?? '').includes('@') && client.availability.length === 0
    && client.preferred_practitioner_ids.length === 0 && client.excluded_practitioner_ids.length === 0;
  const byPractitioner = new Map<number, Listed[]>();
  const clientsTaken = new Set<number>();
  for (const item of candidates) {
    if (!plain(clients.get(item.client_id!)!) || clientsTaken.has(item.client_id!)) continue;
    clientsTaken.add(item.client_id!);
    byPractitioner.set(item.practitioner_id, [...(byPractitioner.get(item.practitioner_id) ?? []), item]);
  }
  // The source day was read in the demo's own zone (Brisbane: in a zone far from it, its date would cover another
  // day's hours). Now the business where it is about 11:00; no reminders (only the re-plan's messages reach the sink).
  ({ business_account: { name: businessName } } = await admin<{ business_account: { name: string } }>('/business_account', {
    method: 'PATCH', body: JSON.stringify({ time_zone: ZONE, reminders_enabled: false, eta_messages_enabled: true, eta_replan_minutes: 15 }),
  }));

  // Neither may be on leave today already (the PMS's unavailable blocks are imported as leave).
  const onLeave = new Set((await admin<{ leave: { practitioner_id: number }[] }>(`/practitioner_leave?start_date=${TODAY}&end_date=${TODAY}`))
    .leave.map((leave) => leave.practitioner_id));
  const ranked = [...byPractitioner.entries()].filter(([id]) => !onLeave.has(id)).sort((a, b) => b[1].length - a[1].length);
  expect(ranked[0][1].length, 'a practitioner with five visits of plain clients').toBeGreaterThanOrEqual(5);
  const nameOf = (id: number) => ahead.practitioners.find((practitioner) => practitioner.id === id)!.full_name;
  sick = { id: ranked[0][0], name: nameOf(ranked[0][0]) };
  other = { id: ranked[1][0], name: nameOf(ranked[1][0]), firstName: nameOf(ranked[1][0]).split(' ')[0] };
  const chosen = (item: Listed, minutes: number): Chosen => ({ id: item.id, client: clients.get(item.client_id!)!, startsAt: at(minutes) });
  const [a1, a2, a3, a4, a5] = ranked[0][1];
  morning = [chosen(a1, -180), chosen(a2, -90)];
  // The other practitioner's visit overlaps the first of the afternoon's: one of the two must move 15 min or more.
  afternoon = [chosen(a3, 90), chosen(a4, 180), chosen(a5, 270)];
  othersVisit = chosen(ranked[1][1][0], 105);

  // Both work all day every day, in the business's zone.
  const allDay = Array.from({ length: 7 }, () => ({ start: '00:00', end: '23:59' }));
  await admin('/practitioners/working_hours', { method: 'PUT', body: JSON.stringify({ practitioner_ids: [sick.id, other.id], working_hours: allDay }) });
  for (const id of [sick.id, other.id]) await admin(`/practitioners/${id}`, { method: 'PATCH', body: JSON.stringify({ time_zone: ZONE }) });

  // Today in the PMS: the demo's visits leave it (a week on), the chosen come to it (45 min each); then one import.
  const todays = await admin<ListBody>(`/appointments?start_date=${TODAY}&end_date=${TODAY}`);
  const weekOn = (iso: string) => Temporal.Instant.from(iso).add({ hours: 24 * CLEARED_DAYS });
  await Promise.all([
    ...todays.appointments.filter((listed) => listed.status === 'BOOKED').map((item) => moveInPms(item.id, weekOn(item.starts_at), weekOn(item.ends_at))),
    ...[...morning, ...afternoon, othersVisit].map((item) => moveInPms(item.id, item.startsAt, item.startsAt.add({ minutes: 45 }))),
  ]);
  await importDays(TODAY, TODAY.add({ days: CLEARED_DAYS + 1 }));

  // This morning's two visits were done.
  for (const item of morning) {
    await recordStep(item.id, 'arrived', item.startsAt);
    await recordStep(item.id, 'done', item.startsAt.add({ minutes: 45 }));
  }
}, 240_000);

async function openToday(width: number, height: number): Promise<{ page: Page; close: () => Promise<void> }> {
  // bypassCSP: axe is injected as an inline script, which the product's CSP forbids.
  const context = await running.browser.newContext({ baseURL: running.product.url, bypassCSP: true, timezoneId: 'Australia/Brisbane', locale: 'en-AU', viewport: { width, height } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await logIn(page, 'staff@demo.test');
  await page.goto(`/appointments?view=schedule&start=${TODAY}&end=${TODAY}`);
  await page.getByTestId('schedule-lane').filter({ hasText: sick.name }).first().waitFor();
  return { page, close: () => context.close() };
}

mkdirSync('tmp', { recursive: true });

describe('a practitioner falls sick at about 11:00', () => {
  it('the coordinator marks them unavailable and re-plans; their later visits go to the other, the clients moved are told once', async () => {
    const listed = await admin<ListBody>(`/appointments?start_date=${TODAY}&end_date=${TODAY}`);
    expect(listed.appointments.map((item) => item.id).sort()).toEqual([...morning, ...afternoon, othersVisit].map((item) => item.id).sort());
    const morningBefore = await Promise.all(morning.map((item) => visit(item.id)));
    expect(morningBefore.map((item) => item.visit_state)).toEqual(['done', 'done']);

    // At 390 px: the dialog, photographed and closed.
    /** The lines of the clients to tell: "Name: 13:30 → 13:55". */
    let lines: string[] = [];
    const [phone, { page, close }] = await Promise.all([openToday(390, 844), openToday(1280, 900)]);
    try {
      await phone.page.getByTestId('day-agenda').getByLabel(`Mark ${sick.name} unavailable from now`).click();
      const phoneDialog = phone.page.getByTestId('unavailable-dialog');
      await phoneDialog.getByRole('button', { name: 'Mark unavailable and re-plan' }).waitFor();
      await phone.page.screenshot({ path: 'tmp/replan-today-390-unavailable.png' });
      expect(await phoneDialog.getByRole('button').allInnerTexts()).toEqual(['', 'Mark unavailable and re-plan', 'Close']);
      expect(describeFindings('Unavailable dialog (390 px)', await seriousViolations(phone.page))).toEqual([]);
      await phoneDialog.getByRole('button', { name: 'Close', exact: true }).click();
      await phoneDialog.waitFor({ state: 'detached' });

      // At 1,280 px: Unavailable from now on the sick practitioner's lane, Sick, from now.
      await page.getByLabel(`Mark ${sick.name} unavailable from now`).click();
      const dialog = page.getByTestId('unavailable-dialog');
      expect(await dialog.getByRole('heading').first().textContent()).toBe(`${sick.name} is unavailable`);
      const from = await dialog.getByLabel('Unavailable from').inputValue();
      expect(Math.abs(Temporal.PlainTime.from(from).until(Temporal.Now.plainTimeISO(ZONE)).total('minutes'))).toBeLessThan(2);
      expect(await dialog.getByLabel('Reason').inputValue()).toBe('Sick');
      await dialog.getByRole('button', { name: 'Mark unavailable and re-plan' }).click();

      // Optimise opens on today with Reassign, both practitioners and their six visits chosen.
      const optimise = page.getByTestId('optimise-dialog');
      await expect.poll(() => optimise.getByTestId('optimise-visit-count').textContent()).toMatch(/^6 visits of the chosen practitioners on this day\./);
      expect(await dialog.count()).toBe(0);
      expect(await optimise.getByRole('radio', { name: /^Reassign between these practitioners/ }).isChecked()).toBe(true);
      const leave = await admin<{ leave: { practitioner_id: number; start_time: string; end_time: string; reason: string }[] }>(`/practitioner_leave?practitioner_id=${sick.id}&start_date=${TODAY}&end_date=${TODAY}`);
      expect(leave.leave).toEqual([expect.objectContaining({ practitioner_id: sick.id, start_time: from, end_time: '23:59', reason: 'Sick' })]);

      await optimise.getByRole('button', { name: 'Start' }).click();
      await optimise.getByTestId('proposal-kpis').waitFor({ timeout: 60_000 });
      const toTell = optimise.getByTestId('clients-to-tell').getByRole('listitem');
      lines = await toTell.allInnerTexts();
      expect(lines.length).toBeGreaterThan(0);
      const told = lines.map((line) => {
        const match = /^(.+): (\d\d:\d\d) → (\d\d:\d\d)(, now with .+)?$/.exec(line.trim());
        expect(match, line).not.toBeNull();
        return { name: match![1], before: match![2], after: match![3], newPractitioner: match![4] !== undefined };
      });
      const count = told.length;
      expect(describeFindings('proposal with the clients to tell (1,280 px)', await seriousViolations(page))).toEqual([]);
      expect(await optimise.getByText(`Clients whose arrival moves by 15 min or more, or who get another practitioner (${count})`).count()).toBe(1);
      const tick = optimise.getByTestId('tell-clients');
      expect(await tick.isChecked()).toBe(true);
      expect(await optimise.getByText(count === 1 ? 'Tell this client the new arrival time when I apply' : `Tell these ${count} clients the new arrival time when I apply`).count()).toBe(1);
      // Only the afternoon's and the other's clients can be told; each line moves by 15 min or more or has a new practitioner.
      const movable = [...afternoon, othersVisit];
      for (const line of told) {
        const item = movable.find((candidate) => candidate.client.full_name === line.name);
        expect(item, line.name).toBeDefined();
        expect(line.before).toBe(clockOf(item!.startsAt.toString()));
        if (!line.newPractitioner) expect(Math.abs(Temporal.PlainTime.from(line.before).until(Temporal.PlainTime.from(line.after)).total('minutes'))).toBeGreaterThanOrEqual(15);
      }

      // At 390 px: a proposal of the same re-plan with its clients to tell, photographed and discarded.
      await phone.page.getByRole('button', { name: 'Optimise' }).click();
      const phoneOptimise = phone.page.getByTestId('optimise-dialog');
      await expect.poll(() => phoneOptimise.getByTestId('optimise-visit-count').textContent()).toMatch(/^6 visits/);
      await phoneOptimise.getByRole('radio', { name: /^Reassign between these practitioners/ }).check();
      await phoneOptimise.getByRole('button', { name: 'Start' }).click();
      await phoneOptimise.getByTestId('clients-to-tell').waitFor({ timeout: 60_000 });
      await phoneOptimise.getByTestId('clients-to-tell').scrollIntoViewIfNeeded();
      await phone.page.screenshot({ path: 'tmp/replan-today-390-proposal.png' });
      await phoneOptimise.getByRole('button', { name: 'Discard' }).click();
      await phoneOptimise.waitFor({ state: 'detached', timeout: 20_000 });

      // Apply, telling them.
      await optimise.getByRole('button', { name: 'Apply' }).click();
      await optimise.waitFor({ state: 'detached', timeout: 20_000 });
      const flash = count === 1 ? 'One client is being told the new arrival time.' : `${count} clients are being told the new arrival time.`;
      await page.getByTestId('toast').filter({ hasText: flash }).first().waitFor();

      // The day shows no problem any more: the leave's flags went with the visits.
      await expect.poll(() => page.getByTestId('day-issues-hard').count(), { timeout: 20_000 }).toBe(0);
      // The afternoon's visits are on the other practitioner's lane, none is left on the sick one's.
      const otherLane = page.getByTestId('schedule-lane').filter({ has: page.getByText(other.name, { exact: true }) });
      for (const item of afternoon) {
        await otherLane.locator(`[data-testid="schedule-block"][aria-label*=${JSON.stringify(item.client.full_name)}]`).first().waitFor();
      }
      const sickLane = page.getByTestId('schedule-lane').filter({ has: page.getByText(sick.name, { exact: true }) });
      const sickBlocks = await sickLane.getByTestId('schedule-block').evaluateAll((blocks) => blocks.map((block) => block.getAttribute('aria-label')!));
      expect(sickBlocks).toHaveLength(2);
      for (const item of afternoon) expect(sickBlocks.some((label) => label.includes(item.client.full_name))).toBe(false);
      // The sick practitioner's lane says so, and offers no second "Unavailable from now".
      await expect.poll(() => sickLane.getByTestId('lane-away').textContent()).toBe(`On leave from ${from} (Sick)`);
      expect(await sickLane.getByLabel(`Mark ${sick.name} unavailable from now`).count()).toBe(0);
      await page.screenshot({ path: 'tmp/replan-today-1280-applied.png', fullPage: true });
    } finally {
      await phone.close();
      await close();
    }

    // Through the API: the afternoon is the other's, after now; the morning as it was; the day checker clean.
    const afternoonAfter = await Promise.all(afternoon.map((item) => visit(item.id)));
    for (const after of afternoonAfter) {
      expect(after.practitioner.id).toBe(other.id);
      expect(Date.parse(after.arrive_at!)).toBeGreaterThan(Date.now());
    }
    const morningAfter = await Promise.all(morning.map((item) => visit(item.id)));
    for (const [index, after] of morningAfter.entries()) {
      expect(after).toMatchObject({ practitioner: { id: sick.id }, arrive_at: morningBefore[index].arrive_at, visit_state: 'done', visit: morningBefore[index].visit });
    }
    expect(await hardIssues()).toEqual([]);

    // The sink: one message per told client, with the other practitioner's name and the new time; none to anyone else
    // (the morning's clients, or those moved by less than 15 min).
    const replanMessages = () => mail.messages().filter((message) => [`Subject: A new time for your visit from ${businessName}`, `Subject: A new practitioner for your visit from ${businessName}`]
      .some((subject) => message.includes(subject)));
    const everyone = [...morning, ...afternoon, othersVisit];
    const toldItems = everyone.filter((item) => lines.some((line) => line.startsWith(`${item.client.full_name}:`)));
    await until('the re-plan messages', async () => replanMessages().length, (received) => received >= toldItems.length, 30_000);
    for (const item of everyone) {
      const theirs = replanMessages().filter((message) => message.includes(item.client.email!));
      if (!toldItems.includes(item)) {
        expect(theirs, item.client.email!).toHaveLength(0);
        continue;
      }
      expect(theirs, item.client.email!).toHaveLength(1);
      // Told by the other practitioner (the sick one has no visit left to tell), at the arrival the proposal listed.
      const now = await visit(item.id);
      expect(now.practitioner.id).toBe(other.id);
      expect(lines).toContain(`${item.client.full_name}: ${clockOf(item.startsAt.toString())} → ${clockOf(now.arrive_at!)}${item === othersVisit ? '' : `, now with ${other.name}`}`);
      expect(theirs[0]).toContain(`${other.firstName} should arrive at about ${timeOf(now.arrive_at!)}.`);
      expect(theirs[0]).toContain(`Hello ${item.client.first_name},`);
    }
    expect(replanMessages()).toHaveLength(toldItems.length);
  });
});
