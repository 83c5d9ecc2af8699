// A day of visits with the client in it (issue 26), in Chromium: the practitioner on a 390 px phone takes one visit
// through On my way → Arrived → Done (and a note after it) and marks another Could not attend (client not home) on the run
// sheet, while a coordinator in a second browser context (1,280 px) has today's schedule open: the states, and the
// overdue alert of a third visit that has no check-in a minute after its planned start (the overdue setting at its
// least), appear there without a reload (the desk reads today again every 15 s and re-judges lateness as the clock
// moves; the test waits on what it shows).
// On my way sends the client the ETA message: by email to a real SMTP sink (SMS not configured), from the business,
// naming the practitioner and an arrival time, once — the coordinator reopening the visit and the practitioner tapping
// On my way again sends nothing more; and on a second server with SMS configured, by text to a stand-in of the SMS
// API on a loopback port. axe finds no serious issue on the run sheet or the schedule with the day's states.
// The steps taken without signal (kept across a reload, sent in order once each with their times) are
// run-sheet-offline.test.ts's; the overdue mark going once a visit is Arrived is day-as-it-happens.test.ts's.
//
// Visits of today: visits the practitioner has booked in the coming days are moved to today (support/practitionerToday).
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs } from './support/api';
import { describeFindings, seriousViolations } from './support/axe';
import { launchBrowser, logIn } from './support/browser';
import { bookToday, PRACTITIONER, ZONE, type Day, type SandboxPatient, type Visit } from './support/practitionerToday';
import { sandboxApiUrl } from './support/sandbox';
import { freePort, startProduct, type RunningProduct } from './support/server';
import { startSmsStandIn, type SmsStandIn } from './support/smsStandIn';
import { startSmtpSink, type SmtpSink } from './support/smtpSink';

const COORDINATOR = 'staff@demo.test';
/** The business's overdue_after_minutes, set at its least so the overdue visit is today's at nearly any hour. */
const OVERDUE_AFTER_MINUTES = 1;
/** How long after booking the third visit turns overdue: enough for the desk to open and show it on time first. */
const OVERDUE_LEAD_SECONDS = 40;
/** A step on the phone: the position asked, the request answered. */
const ON_THE_PHONE = { timeout: 10_000, interval: 100 };
/** What the desk shows after its next read of today (every 15 s). */
const ON_THE_DESK = { timeout: 20_000, interval: 250 };

interface Appointment {
  id: number; visit_state: string; client: { full_name: string } | null;
  visit: { note: string | null; reason: string | null; on_my_way_at: string | null } | null;
}

/** A phone's position about 4 km west of a client's point (the practitioner setting out). */
const awayFrom = (patient: SandboxPatient) => ({ latitude: patient.latitude! + 0.01, longitude: patient.longitude! - 0.04, accuracy: 20 });

async function openPage(product: RunningProduct, email: string, viewport: { width: number; height: number }, geolocation?: { latitude: number; longitude: number }) {
  // bypassCSP: axe is injected as an inline script, which the product's CSP forbids.
  const context = await browser.newContext({
    baseURL: product.url, bypassCSP: true, timezoneId: ZONE, locale: 'en-AU', viewport,
    ...(geolocation ? { geolocation, permissions: ['geolocation'] } : {}),
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await logIn(page, email);
  return { context, page, problems };
}

/** The run sheet's stop of a client (the phone). */
const stopOf = (page: Page, client: string) => page.getByTestId('run-sheet-stop').filter({ hasText: client });
const stateOf = (stop: Locator) => stop.getByTestId('visit-status').getAttribute('data-state');
/** Waits until the stop shows `state`; else fails saying what it shows (a step refused says why on the stop). */
async function expectStop(stop: Locator, state: string) {
  try {
    await expect.poll(() => stateOf(stop), ON_THE_PHONE).toBe(state);
  } catch (error) {
    const shows = await stop.innerText().catch(() => '(no stop)');
    const machine = await stop.getByTestId('visit-steps').getAttribute('data-machine-state').catch(() => '?');
    throw new Error(`The stop did not come to ${state}; it shows (steps ${machine}): ${JSON.stringify(shows)}`, { cause: error });
  }
}
/** A visit's block in the day's lanes (the desk at 1,280 px), by its name: "19:55 Dorothy Ryan (Nursing visit), …" (a
 * block's name may also mention the next visit's client, in a travel warning). */
const blockOf = (page: Page, visit: Visit) =>
  page.locator(`[data-testid="schedule-block"][aria-label^=${JSON.stringify(`${visit.starts.toPlainTime().toString({ smallestUnit: 'minute' })} ${visit.client}`)}]`);

/** The ETA_MESSAGE jobs the server has finished, oldest first, with what each did (its log, at info). */
function etaJobsDone(product: RunningProduct): { status: string; channel?: string | null }[] {
  return product.logs().split('\n').flatMap((line) => {
    if (!line.includes('"ETA_MESSAGE"') || !line.includes('job complete')) return [];
    try {
      const entry = JSON.parse(line) as { kind?: string; msg?: string; result?: { status: string; channel?: string | null } };
      return entry.kind === 'ETA_MESSAGE' && entry.msg === 'job complete' && entry.result ? [entry.result] : [];
    } catch {
      return [];
    }
  });
}

/** "7:55 pm" as minutes of the day. */
function minutesOfClock(clock: string): number {
  const [, hours, minutes, half] = /^(\d{1,2}):(\d\d) ([ap]m)$/.exec(clock)!;
  return (Number(hours) % 12) * 60 + Number(minutes) + (half === 'pm' ? 720 : 0);
}

/**
 * An arrival told at `told` ("7:55 pm") is after the step taken at `stepAt`, and within two hours of it; none told only
 * when the visit's planned arrival had passed (a run late in Brisbane's evening: visits are booked at 23:00 at the
 * latest) and the phone gave no position.
 */
function expectArrivalAfter(told: string | undefined, stepAt: Date, planned: Temporal.ZonedDateTime) {
  if (told === undefined) {
    expect(planned.epochMilliseconds, 'no arrival time told, while the planned arrival was ahead').toBeLessThan(stepAt.getTime());
    return;
  }
  const step = Temporal.Instant.fromEpochMilliseconds(stepAt.getTime()).toZonedDateTimeISO(ZONE);
  const ahead = (minutesOfClock(told) - (step.hour * 60 + step.minute) + 1440) % 1440;
  expect(ahead, `arrival ${told} after the step at ${step.toPlainTime().toString()}`).toBeGreaterThanOrEqual(1);
  expect(ahead).toBeLessThanOrEqual(120);
}

let mail: SmtpSink;
let sms: SmsStandIn;
let byEmail: RunningProduct; // SMTP to the sink, no SMS
let bySms: RunningProduct; // SMS to the stand-in
let browser: Browser;
let day: Day; // on byEmail: [the visit done, the visit not attended, the visit overdue]
let smsDay: Day; // on bySms: [the visit the client is texted about]
let overdueFrom: number; // when the third visit turns overdue (epoch ms)

beforeAll(async () => {
  const emailSandboxPort = await freePort();
  const smsSandboxPort = await freePort();
  [mail, sms] = await Promise.all([startSmtpSink(), startSmsStandIn()]);
  [byEmail, bySms, browser] = await Promise.all([
    startProduct({ SANDBOX_PORT: String(emailSandboxPort), SMTP_URL: mail.url }),
    startProduct({ SANDBOX_PORT: String(smsSandboxPort), ...sms.env }),
    launchBrowser(),
  ]);
  bySms.keepOutOfLog(sms.env.SMS_AUTH_TOKEN);
  const now = Temporal.Now.zonedDateTimeISO(ZONE);
  // Ahead (the ETA is after the tap) and on the day, even late in the evening.
  const latest = now.with({ hour: 23, minute: 0, second: 0, millisecond: 0 });
  const ahead = Temporal.ZonedDateTime.compare(now.add({ minutes: 40 }), latest) < 0 ? now.add({ minutes: 40 }).round({ smallestUnit: 'minute', roundingMode: 'ceil', roundingIncrement: 5 }) : latest;
  const lastStart = now.with({ hour: 23, minute: 45, second: 0, millisecond: 0 });
  const laterOn = Temporal.ZonedDateTime.compare(ahead.add({ minutes: 90 }), lastStart) < 0 ? ahead.add({ minutes: 90 }) : lastStart;
  // The third visit turns overdue 40 s from now (booked 20 s ago: with the default 15 minutes it was booked 14 minutes
  // ago, yesterday's in the first quarter hour after Brisbane's midnight, and the file failed then).
  const admin = await apiAs(byEmail.url, 'admin@demo.test');
  await admin('/business_account', { method: 'PATCH', body: JSON.stringify({ overdue_after_minutes: OVERDUE_AFTER_MINUTES }) });
  const overdueStart = now.subtract({ minutes: OVERDUE_AFTER_MINUTES }).add({ seconds: OVERDUE_LEAD_SECONDS }).round({ smallestUnit: 'second', roundingMode: 'floor' });
  overdueFrom = overdueStart.epochMilliseconds + OVERDUE_AFTER_MINUTES * 60_000;
  [day, smsDay] = await Promise.all([
    bookToday(byEmail, sandboxApiUrl(emailSandboxPort), [
      { starts: ahead, withEmail: true }, { starts: laterOn }, { starts: overdueStart },
    ]),
    bookToday(bySms, sandboxApiUrl(smsSandboxPort), [{ starts: ahead }]),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([byEmail?.stop(), bySms?.stop(), mail?.close(), sms?.close()]);
});

describe('a day of visits, on the phone and at the desk', () => {
  let phone: { context: BrowserContext; page: Page; problems: string[] };
  let desk: { context: BrowserContext; page: Page; problems: string[] };
  let onMyWayAt: Date;

  beforeAll(async () => {
    const [done] = day.visits;
    [phone, desk] = await Promise.all([
      openPage(byEmail, PRACTITIONER, { width: 390, height: 844 }, awayFrom(done.patient)),
      openPage(byEmail, COORDINATOR, { width: 1280, height: 900 }),
    ]);
    const today = Temporal.Now.plainDateISO(ZONE).toString();
    await Promise.all([
      phone.page.goto('/appointments?view=run-sheet'),
      desk.page.goto(`/appointments?view=schedule&start=${today}&end=${today}`),
    ]);
    // A mark a reload would wipe.
    await desk.page.evaluate(() => { (window as unknown as { notReloaded: boolean }).notReloaded = true; });
  });
  afterAll(async () => {
    await Promise.all([phone?.context.close(), desk?.context.close()]);
  });

  it("On my way: the desk sees it without a reload; the client's email comes from the business, with the practitioner and an arrival time, once", async () => {
    const [done, , overdue] = day.visits;
    const stop = stopOf(phone.page, done.client);
    const block = blockOf(desk.page, done);
    await expect.poll(() => block.getAttribute('data-state'), ON_THE_PHONE).toBe('not_started');
    // The third visit is on the schedule before its time is up (checked when the set-up left time to see it so).
    const overdueBlock = blockOf(desk.page, overdue);
    await overdueBlock.waitFor();
    if (Date.now() < overdueFrom - 3_000) expect(await overdueBlock.getAttribute('data-overdue')).toBeNull();

    await stop.getByRole('button', { name: 'On my way' }).click();
    onMyWayAt = new Date();
    await expectStop(stop, 'on_my_way');
    const to = new RegExp(`^To: <?${done.patient.email!.replace(/[.+]/g, '\\$&')}>?\r?$`, 'mi');
    const toClient = () => mail.messages().filter((message) => to.test(message));
    await Promise.all([
      expect.poll(() => block.getAttribute('data-state'), ON_THE_DESK).toBe('on_my_way'),
      expect.poll(() => toClient().length, { timeout: 20_000, interval: 250 }).toBe(1),
    ]);
    const [email] = toClient();
    const headers = email.slice(0, email.indexOf('\r\n\r\n')).replace(/\r\n[ \t]+/g, ' ');
    const business = day.business.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(headers).toMatch(new RegExp(`^From: "?${business}"? <[^>]+>$`, 'm'));
    expect(headers).toMatch(new RegExp(`^Subject: ${day.practitionerFirstName} from ${business} is on the way$`, 'm'));
    const sentence = new RegExp(`Your practitioner ${day.practitionerFirstName} from ${business} is on the way(?: and should arrive at about (\\d{1,2}:\\d\\d [ap]m))?\\.`);
    expect(email).toMatch(sentence);
    expect([done.patient.first_name, done.patient.preferred_first_name].map((name) => `Hello ${name},`)).toContainEqual(/^Hello .*,$/m.exec(email)![0]);
    const told = sentence.exec(email)![1] as string | undefined;
    // After the tap: the tap plus the travel from 4 km off (or the planned arrival, should the phone give no position);
    // the visit's change log says the same time.
    expectArrivalAfter(told, onMyWayAt, done.starts);
    const coordinatorApi = await apiAs(byEmail.url, COORDINATOR);
    const { versions } = await coordinatorApi<{ versions: { object_changes: Record<string, unknown[]> }[] }>(`/appointments/${done.id}/extra_details`);
    expect(versions.map((version) => version.object_changes.eta_message?.[1]).filter(Boolean))
      .toEqual([expect.stringMatching(new RegExp(`^ETA message sent by email at \\d\\d:\\d\\d ${told ? `\\(arrival about ${told}\\)` : '\\(no arrival time told\\)'}$`))]);

    // Once: the coordinator reopens the visit from its details on the desk, the practitioner taps On my way again.
    // From the keyboard: late in Brisbane's evening the overdue visit's block (booked moments ago) overlaps this one
    // and takes the pointer.
    await block.press('Enter');
    const modal = desk.page.getByTestId('appointment-details-modal');
    await modal.getByRole('button', { name: 'Reopen the visit' }).click();
    await expect.poll(() => modal.getByTestId('visit-status').getAttribute('data-state'), ON_THE_PHONE).toBe('not_started');
    await desk.page.keyboard.press('Escape');
    await modal.waitFor({ state: 'detached' });
    await phone.page.reload();
    await expectStop(stop, 'not_started');
    await stop.getByRole('button', { name: 'On my way' }).click();
    await expectStop(stop, 'on_my_way');
    await expect.poll(() => etaJobsDone(byEmail).length, { timeout: 20_000, interval: 250 }).toBe(2);
    expect(etaJobsDone(byEmail)).toMatchObject([{ status: 'SENT', channel: 'email' }, { status: 'already' }]);
    expect(toClient()).toHaveLength(1);
    expect(mail.messages()).toHaveLength(1);
  });

  it('Arrived, Done and a note after it, and Could not attend on the phone, and an overdue visit: the desk shows them without a reload', async () => {
    const [done, missed, overdue] = day.visits;
    const stop = stopOf(phone.page, done.client);
    // At the door.
    await phone.context.setGeolocation({ latitude: done.patient.latitude!, longitude: done.patient.longitude!, accuracy: 10 });
    await stop.getByRole('button', { name: 'Arrived' }).click();
    await expectStop(stop, 'arrived');
    await stop.getByRole('button', { name: 'Done' }).click();
    await expectStop(stop, 'done');
    // The note after Done (Done is one tap).
    await stop.getByRole('button', { name: 'Add a note' }).click();
    await stop.getByLabel('Note').fill('Dressing changed; the family will call the GP');
    await stop.getByRole('button', { name: 'Save the note' }).click();
    await expect.poll(() => stop.getByTestId('visit-note').innerText(), ON_THE_PHONE).toBe('Note: Dressing changed; the family will call the GP');

    const missedStop = stopOf(phone.page, missed.client);
    await missedStop.getByRole('button', { name: 'Could not attend' }).click();
    await missedStop.getByText('Client not home').click();
    await missedStop.getByRole('button', { name: 'Confirm: could not attend' }).click();
    await expectStop(missedStop, 'could_not_attend');
    expect(await missedStop.getByTestId('visit-reason').innerText()).toBe('Reason: Client not home');
    expect(await phone.page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);
    expect(describeFindings('run sheet (390 px)', await seriousViolations(phone.page))).toEqual([]);

    const block = blockOf(desk.page, done);
    const missedBlock = blockOf(desk.page, missed);
    await Promise.all([
      expect.poll(() => block.getAttribute('data-state'), ON_THE_DESK).toBe('done'),
      expect.poll(() => missedBlock.getAttribute('data-state'), ON_THE_DESK).toBe('could_not_attend'),
    ]);
    expect(await block.getByTestId('block-actual').textContent()).toMatch(/^Done \d\d:\d\d–\d\d:\d\d$/);
    expect(await block.getAttribute('aria-label')).toMatch(/ Done \d\d:\d\d–\d\d:\d\d/);
    expect(await block.getAttribute('title')).toMatch(/Done \(On my way \d\d:\d\d · Arrived \d\d:\d\d · Done \d\d:\d\d\)/);
    expect(await missedBlock.getAttribute('aria-label')).toMatch(/Could not attend/);
    // The third visit, never checked in, turns overdue as the clock passes its planned start + the overdue setting.
    // During the demo's working day its other visits of today, never checked in, are overdue too: the banner lists the
    // latest first, and this one (a minute late) may be among "and N more".
    const banner = desk.page.getByTestId('overdue-banner');
    await expect.poll(() => blockOf(desk.page, overdue).getAttribute('data-overdue'), {
      timeout: Math.max(0, overdueFrom - Date.now()) + 20_000, interval: 250,
    }).toBe('true');
    const listed = new RegExp(`${overdue.client.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not started, \\d+ min late|and \\d+ more`);
    expect(await banner.textContent()).toMatch(/^\d+ visits? needs? you:/);
    expect(await banner.textContent()).toMatch(listed);
    expect(await desk.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(describeFindings('day schedule (1,280 px)', await seriousViolations(desk.page))).toEqual([]);

    // What the server kept: the note, the reason; and no message to the client not visited.
    const api = await apiAs(byEmail.url, COORDINATOR);
    const [{ appointment: kept }, { appointment: notAttended }] = await Promise.all([
      api<{ appointment: Appointment }>(`/appointments/${done.id}`), api<{ appointment: Appointment }>(`/appointments/${missed.id}`),
    ]);
    expect(kept).toMatchObject({ visit_state: 'done', visit: { note: 'Dressing changed; the family will call the GP' } });
    expect(notAttended).toMatchObject({ visit_state: 'could_not_attend', visit: { reason: 'client_not_home' } });
    expect(mail.messages()).toHaveLength(1);
    expect([...phone.problems, ...desk.problems]).toEqual([]);
  });
});

describe('with SMS configured', () => {
  it("On my way texts the client's mobile through the SMS API, once", async () => {
    const [visit] = smsDay.visits;
    const { context, page, problems } = await openPage(bySms, PRACTITIONER, { width: 390, height: 844 },
      visit.patient.latitude === null ? undefined : awayFrom(visit.patient));
    try {
      await page.goto('/appointments?view=run-sheet');
      const stop = stopOf(page, visit.client);
      await stop.getByRole('button', { name: 'On my way' }).click();
      const tappedAt = new Date();
      await expectStop(stop, 'on_my_way');
      await expect.poll(() => sms.texts().length, { timeout: 20_000, interval: 250 }).toBe(1);
      const [text] = sms.texts();
      const mobile = visit.patient.patient_phone_numbers.find((phone) => phone.phone_type === 'Mobile')!.number;
      expect(text.to).toBe(mobile);
      expect(text.from).toBe(sms.env.SMS_FROM);
      const business = smsDay.business.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const body = new RegExp(`^Your practitioner ${smsDay.practitionerFirstName} from ${business} is on the way(?: and should arrive at about (\\d{1,2}:\\d\\d [ap]m))?\\.`
        + '( Questions: [^.]+\\.)? Stop messages: http\\S+/client/reminders/unsubscribe\\?token=\\S+$');
      expect(text.body).toMatch(body);
      expectArrivalAfter(body.exec(text.body)![1] as string | undefined, tappedAt, visit.starts);
      // Nothing to tap twice: once On my way, the visit's next step is Arrived (a repeated or retried step is the API
      // tests' and the first test's).
      expect(await stop.getByRole('button', { name: 'On my way' }).count()).toBe(0);
      await expect.poll(() => etaJobsDone(bySms).length, ON_THE_PHONE).toBe(1);
      expect(etaJobsDone(bySms)).toMatchObject([{ status: 'SENT', channel: 'sms' }]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
