// Appointment reminders to clients (issue 14): the daily batch at each business's reminder hour, through the job
// queue and scheduler; exactly once with two workers and with a worker that died; retries and the dashboard; DST;
// opt-out from the client modal's endpoint and the email's unsubscribe link; tenancy; the SMS channel.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, desc, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessAccounts, clients, outboxEmails, versions } from '../../server/src/db/schema';
import { reminderRuns, sentReminders } from '../../server/src/db/schema-reminders';
import { jobs } from '../../server/src/db/schema-jobs';
import { runReminderBatch, type ReminderContent } from '../../server/src/modules/reminders';
import { setSubscription } from '../../server/src/modules/subscriptions';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs, scheduleReminders } from './support/jobs';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BRISBANE = 'Australia/Brisbane';
const SYDNEY = 'Australia/Sydney';
const tomorrowIn = (zone: string) => Temporal.Now.plainDateISO(zone).add({ days: 1 }).toString();
const todayIn = (zone: string) => Temporal.Now.plainDateISO(zone).toString();
const at = (date: string, time: string, zone: string) => new Date(Temporal.PlainDateTime.from(`${date}T${time}`).toZonedDateTime(zone).epochMilliseconds);

let labels = 0;
/**
 * A business of its own per test, with reminders on, in `zone`, with contact details, paying (active, with a payment
 * method: still allowed reminders when a test's clock is past the end of a new business's trial).
 */
async function business(zone = BRISBANE): Promise<BusinessFixture> {
  const fixture = await createBusinessFixture(t, `rem${++labels}`);
  await t.ctx.db.update(businessAccounts).set({ time_zone: zone, contact_email: 'office@care.test', contact_phone: '07 3000 1234' })
    .where(eq(businessAccounts.id, fixture.businessAccountId));
  await setSubscription(t.ctx.db, fixture.businessAccountId, { plan: 'standard', status: 'active', paymentMethodOnFile: true });
  return fixture;
}

async function addClient(fixture: BusinessFixture, firstName: string, values: Partial<typeof clients.$inferInsert> = {}): Promise<number> {
  const [row] = await t.ctx.db.insert(clients).values({
    business_account_id: fixture.businessAccountId, first_name: firstName, last_name: `Rem${labels}`,
    email: `${firstName.toLowerCase()}.${fixture.businessAccountId}@client.test`, ...values,
  }).returning();
  return row.id;
}

/** A visit of `clientId` with practitionerIds[practitioner] (Pat, Quinn) at `time` on `date` (business zone). */
async function addVisit(fixture: BusinessFixture, clientId: number, date: string, time: string, zone: string,
  options: { practitioner?: number; arrive?: string | null; cancelled?: boolean } = {}) {
  const startsAt = at(date, time, zone);
  await t.ctx.db.insert(appointments).values({
    business_account_id: fixture.businessAccountId, client_id: clientId, practitioner_id: fixture.practitionerIds[options.practitioner ?? 0],
    starts_at: startsAt, ends_at: new Date(startsAt.getTime() + 45 * 60_000),
    arrive_at: options.arrive ? at(date, options.arrive, zone) : null,
    cancelled_at: options.cancelled ? new Date() : null,
  });
}

const emailsTo = (address: string) => t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address)).orderBy(asc(outboxEmails.id));
const emailOf = async (clientId: number) => {
  const [client] = await t.ctx.db.select().from(clients).where(eq(clients.id, clientId));
  return emailsTo(client.email!);
};
const ledger = (fixture: BusinessFixture) => t.ctx.db.select().from(sentReminders)
  .where(eq(sentReminders.business_account_id, fixture.businessAccountId)).orderBy(asc(sentReminders.id));
const reminderJobs = (fixture: BusinessFixture) => t.ctx.db.select().from(jobs)
  .where(and(eq(jobs.business_account_id, fixture.businessAccountId), eq(jobs.kind, 'REMINDERS')));
/** What the scheduler does when the reminder hour comes: the day is handed out for the next reminders job. */
const claimDay = (fixture: BusinessFixture, visitDate: string) =>
  t.ctx.db.insert(reminderRuns).values({ business_account_id: fixture.businessAccountId, visit_date: visitDate, due_at: new Date() });
const linkIn = (text: string, path: string) => new URL(new RegExp(`(http\\S+${path}\\S+)`).exec(text)![1]);

describe('the daily reminder', () => {
  it("goes at the business's reminder hour, through the queue, once per client, listing the next day's visits", async () => {
    const acme = await business();
    await t.ctx.db.update(businessAccounts).set({ reminder_hour: 7 }).where(eq(businessAccounts.id, acme.businessAccountId));
    const day = tomorrowIn(BRISBANE);
    const ella = await addClient(acme, 'Ella');
    const finn = await addClient(acme, 'Finn');
    const noEmail = await addClient(acme, 'Gus', { email: null });
    const onlyCancelled = await addClient(acme, 'Hana');
    const otherDay = await addClient(acme, 'Ivy');
    await addVisit(acme, ella, day, '09:10', BRISBANE, { arrive: '09:10' });
    await addVisit(acme, ella, day, '14:00', BRISBANE, { practitioner: 1 });
    await addVisit(acme, ella, day, '16:00', BRISBANE, { cancelled: true });
    await addVisit(acme, finn, day, '23:30', BRISBANE);
    await addVisit(acme, noEmail, day, '10:00', BRISBANE);
    await addVisit(acme, onlyCancelled, day, '10:00', BRISBANE, { cancelled: true });
    await addVisit(acme, otherDay, Temporal.PlainDate.from(day).add({ days: 1 }).toString(), '10:00', BRISBANE);

    const dueAt = at(todayIn(BRISBANE), '07:00', BRISBANE);
    await scheduleReminders(t.ctx.db, new Date(dueAt.getTime() - 60_000));
    expect(await reminderJobs(acme)).toEqual([]);
    await scheduleReminders(t.ctx.db, dueAt);
    expect(await reminderJobs(acme)).toHaveLength(1);
    await drainJobs(t.ctx);
    const [job] = await reminderJobs(acme);
    expect(job).toMatchObject({ status: 'COMPLETE', start_date: day, automatic: true, result: { listed: 2, sent: 2, failed: 0, retrying: 0, skipped: 0 } });

    const [toElla, ...moreToElla] = await emailOf(ella);
    expect(moreToElla).toEqual([]);
    const dayText = Temporal.PlainDate.from(day).toLocaleString('en-AU', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
    expect(toElla.subject).toBe(`Reminder: your visits on ${dayText}`);
    expect(toElla.text_body).toContain('Hello Ella,');
    expect(toElla.text_body).toMatch(new RegExp(`This is a reminder of your 2 visits from rem\\d+ Care on ${dayText}:`));
    // Routed arrival 09:10 → rounded to 09:15, ±30 minutes; the unrouted visit gives its booked time.
    expect(toElla.text_body).toMatch(/- between 8:45 am and 9:45 am, with Pat\n- at 2:00 pm, with Quinn\n/);
    expect(toElla.text_body).not.toContain('4:00 pm');
    expect(toElla.text_body).toContain('· 07 3000 1234 · office@care.test');
    expect(toElla.html_body).toContain('<li>between 8:45 am and 9:45 am, with Pat</li>');
    expect(toElla.html_body).toContain('Update my availability');
    expect((await emailOf(finn))[0].text_body).toContain('- at 11:30 pm, with Pat');
    for (const nobody of [onlyCancelled, otherDay]) expect(await emailOf(nobody)).toEqual([]);

    // The availability link is the existing signed, single-use link: the public page opens with it.
    const availability = linkIn(toElla.text_body, '/client/update-availability');
    const page = await t.request('GET', `/api/public/availability?token=${encodeURIComponent(availability.searchParams.get('token')!)}`);
    expect(page.status).toBe(200);
    expect(page.body.client).toEqual({ first_name: 'Ella' });

    // Later ticks of the same day, and a second worker's scheduler, send nothing more.
    await scheduleReminders(t.ctx.db, new Date(dueAt.getTime() + 3600_000));
    await drainJobs(t.ctx);
    expect(await reminderJobs(acme)).toHaveLength(1);
    expect(await emailOf(ella)).toHaveLength(1);
  });

  it('is not sent to clients who turned reminders off, nor by a business that turned them off, nor across businesses', async () => {
    const acme = await business();
    const other = await business();
    const off = await business();
    await t.ctx.db.update(businessAccounts).set({ reminders_enabled: false }).where(eq(businessAccounts.id, off.businessAccountId));
    const day = tomorrowIn(BRISBANE);
    const jo = await addClient(acme, 'Jo');
    const kim = await addClient(acme, 'Kim');
    const lou = await addClient(other, 'Lou');
    const max = await addClient(off, 'Max');
    for (const [fixture, client] of [[acme, jo], [acme, kim], [other, lou], [off, max]] as const) await addVisit(fixture, client, day, '10:00', BRISBANE);

    const optOut = await t.request('PUT', `/api/clients/${kim}/update_reminders`, { token: acme.tokens.staff, body: { reminders_enabled: false } });
    expect(optOut.status).toBe(200);
    expect(optOut.body.client).toMatchObject({ id: kim, reminders_enabled: false });
    const [version] = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, kim))).orderBy(desc(versions.id)).limit(1);
    expect(version).toMatchObject({ whodunnit: 'Sid', object_changes: { reminders_enabled: [true, false] } });
    // Another business's client is not found; a wrong body is refused.
    expect((await t.request('PUT', `/api/clients/${lou}/update_reminders`, { token: acme.tokens.admin, body: { reminders_enabled: false } })).status).toBe(404);
    expect((await t.request('PUT', `/api/clients/${jo}/update_reminders`, { token: acme.tokens.admin, body: { reminders_enabled: 'no' } })).status).toBe(422);
    expect((await t.request('GET', `/api/clients/${jo}`, { token: acme.tokens.admin })).body.client.reminders_enabled).toBe(true);

    const dueAt = at(todayIn(BRISBANE), '02:00', BRISBANE);
    await scheduleReminders(t.ctx.db, dueAt);
    await drainJobs(t.ctx);
    expect(await emailOf(jo)).toHaveLength(1);
    expect(await emailOf(kim)).toEqual([]);
    expect(await emailOf(max)).toEqual([]);
    expect(await reminderJobs(off)).toEqual([]);
    const [toLou] = await emailOf(lou);
    expect(toLou.business_account_id).toBe(other.businessAccountId);
    expect(toLou.text_body).toContain('rem');
    expect(toLou.text_body).not.toContain('Jo');
    expect((await ledger(acme)).map((row) => row.client_id)).toEqual([jo]);
  });
});

describe('a business that must add a payment method', () => {
  it('gets no reminders job and its clients no email until it has paid; then that day\'s reminders go', async () => {
    const acme = await business();
    await t.ctx.db.update(businessAccounts).set({ reminder_hour: 7 }).where(eq(businessAccounts.id, acme.businessAccountId));
    const day = tomorrowIn(BRISBANE);
    const uma = await addClient(acme, 'Uma');
    await addVisit(acme, uma, day, '10:00', BRISBANE);
    const dueAt = at(todayIn(BRISBANE), '07:00', BRISBANE);
    // Its trial ended yesterday without a payment method (the API answers its users 40003).
    await setSubscription(t.ctx.db, acme.businessAccountId, { plan: 'trial', status: 'trialing', trialEndsAt: new Date(dueAt.getTime() - 24 * 3600_000), paymentMethodOnFile: false });
    expect((await t.request('GET', '/api/clients', { token: acme.tokens.staff })).body.code).toBe('40003');

    await scheduleReminders(t.ctx.db, dueAt);
    await scheduleReminders(t.ctx.db, new Date(dueAt.getTime() + 3600_000));
    await drainJobs(t.ctx);
    expect(await reminderJobs(acme)).toEqual([]);
    expect(await emailOf(uma)).toEqual([]);
    expect(await ledger(acme)).toEqual([]);

    await setSubscription(t.ctx.db, acme.businessAccountId, { paymentMethodOnFile: true });
    await scheduleReminders(t.ctx.db, new Date(dueAt.getTime() + 2 * 3600_000));
    await drainJobs(t.ctx);
    expect(await reminderJobs(acme)).toHaveLength(1);
    expect(await emailOf(uma)).toHaveLength(1);
  });

  it('is not handed a day it claimed before it had to pay until it has paid', async () => {
    const acme = await business();
    const day = tomorrowIn(BRISBANE);
    const vic = await addClient(acme, 'Vic');
    await addVisit(acme, vic, day, '10:00', BRISBANE);
    await claimDay(acme, day); // claimed before the business had to pay
    await setSubscription(t.ctx.db, acme.businessAccountId, { status: 'cancelled' });
    await scheduleReminders(t.ctx.db, new Date());
    await drainJobs(t.ctx);
    expect(await reminderJobs(acme)).toEqual([]);
    expect(await emailOf(vic)).toEqual([]);
    await setSubscription(t.ctx.db, acme.businessAccountId, { status: 'active' });
    await scheduleReminders(t.ctx.db, new Date());
    await drainJobs(t.ctx);
    expect(await emailOf(vic)).toHaveLength(1);
  });
});

describe('exactly once', () => {
  it('sends each reminder once when two workers run the batch at the same time', async () => {
    const acme = await business();
    const day = tomorrowIn(BRISBANE);
    const ids: number[] = [];
    for (let index = 0; index < 24; index++) ids.push(await addClient(acme, `Twin${index}`));
    for (const id of ids) await addVisit(acme, id, day, '10:00', BRISBANE);
    await claimDay(acme, day);
    const settings = { chunkSize: 5 };
    const [first, second] = await Promise.all([
      runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'worker-a', settings }),
      runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'worker-b', settings }),
    ]);
    expect(first.sent + second.sent).toBe(24);
    expect(first.listed + second.listed).toBe(24);
    const sent = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.business_account_id, acme.businessAccountId));
    expect(sent.filter((email) => email.subject.startsWith('Reminder'))).toHaveLength(24);
    expect(new Set(sent.map((email) => email.to_address)).size).toBe(24);
    expect((await ledger(acme)).every((row) => row.status === 'SENT' && row.attempts === 1)).toBe(true);
  });

  it("takes over the claims of a worker that died mid-batch once their lease expired, and sends each of them once", async () => {
    const acme = await business();
    const day = tomorrowIn(BRISBANE);
    const ids: number[] = [];
    for (let index = 0; index < 6; index++) ids.push(await addClient(acme, `Dies${index}`));
    for (const id of ids) await addVisit(acme, id, day, '10:00', BRISBANE);
    await claimDay(acme, day);
    // Worker A sends two reminders, then hangs for ever on the third (as if killed): its claims stay SENDING.
    let sends = 0;
    const hangs = {
      name: 'email' as const,
      async send(to: string, content: ReminderContent, businessAccountId: number) {
        if (++sends > 2) return new Promise<void>(() => {});
        await t.ctx.mailer.send({ to, subject: 'Reminder (worker A)', text: content.clientFirstName, businessAccountId });
      },
    };
    void runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'worker-a', channels: [hangs], settings: { leaseMs: 2000, chunkSize: 10 } });
    await expect.poll(async () => (await ledger(acme)).filter((row) => row.status === 'SENT').length).toBe(2);
    expect((await ledger(acme)).filter((row) => row.status === 'SENDING')).toHaveLength(4);

    // Before the lease ends another worker leaves them alone; after it, it sends exactly the four left.
    const early = await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'worker-b' });
    expect(early.sent).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const late = await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'worker-b' });
    expect(late.sent).toBe(4);
    const rows = await ledger(acme);
    expect(rows.map((row) => row.status)).toEqual(Array(6).fill('SENT'));
    for (const id of ids) expect(await emailOf(id)).toHaveLength(1);
    // The scheduler finds nothing left to take over.
    await scheduleReminders(t.ctx.db, new Date());
    expect(await reminderJobs(acme)).toEqual([]);
  });
});

describe('failed sends', () => {
  it('are tried again, up to three times, then shown on the dashboard of admins and staff', async () => {
    const acme = await business();
    const day = tomorrowIn(BRISBANE);
    const nell = await addClient(acme, 'Nell');
    const otto = await addClient(acme, 'Otto');
    await addVisit(acme, nell, day, '10:00', BRISBANE);
    await addVisit(acme, otto, day, '11:00', BRISBANE);
    await claimDay(acme, day);
    const tries = new Map<string, number>();
    const flaky = {
      name: 'email' as const,
      async send(to: string) {
        tries.set(to, (tries.get(to) ?? 0) + 1);
        // Nell's mail server refuses every time; Otto's once, then accepts.
        if (to.startsWith('nell') || tries.get(to) === 1) throw new Error('451 4.3.0 Mail server temporarily rejected message');
      },
    };
    const first = await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', channels: [flaky] });
    expect(first).toMatchObject({ sent: 0, retrying: 2 });
    const waiting = await ledger(acme);
    expect(waiting.map((row) => [row.status, row.attempts])).toEqual([['PENDING', 1], ['PENDING', 1]]);
    expect(waiting[0].run_after.getTime()).toBeGreaterThan(Date.now() + 60_000);

    // Retries are not due yet; once they are, the scheduler asks for a job and it retries.
    await t.ctx.db.update(sentReminders).set({ run_after: new Date(Date.now() - 1000) }).where(eq(sentReminders.business_account_id, acme.businessAccountId));
    const second = await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', channels: [flaky], settings: { retryDelayMs: 0 } });
    expect(second).toMatchObject({ sent: 1, failed: 1 });
    expect(tries.get(`nell.${acme.businessAccountId}@client.test`)).toBe(3);
    const rows = await ledger(acme);
    expect(rows.map((row) => [row.client_id, row.status, row.attempts])).toEqual([[nell, 'FAILED', 3], [otto, 'SENT', 2]]);
    expect(rows[0].last_error).toMatch(/temporarily rejected/);

    for (const token of [acme.tokens.admin, acme.tokens.staff]) {
      const dashboard = await t.request('GET', '/api/dashboard', { token });
      expect(dashboard.status).toBe(200);
      expect(dashboard.body.overview.failed_reminders).toEqual({
        count: 1,
        clients: [{ client_id: nell, client_name: `Nell Rem${labels}`, visit_date: day, channel: 'email', error: expect.stringMatching(/temporarily rejected/) }],
      });
    }
    expect((await t.request('GET', '/api/dashboard', { token: acme.tokens.practitioner })).body.overview).toBeNull();
    // Another business sees none of them.
    const other = await business();
    expect((await t.request('GET', '/api/dashboard', { token: other.tokens.admin })).body.overview.failed_reminders).toEqual({ count: 0, clients: [] });
  });
});

describe('a day the clocks change', () => {
  // Sydney: 2027-10-03 02:00 AEST becomes 03:00 AEDT (spring forward); 2027-04-04 03:00 AEDT becomes 02:00 AEST.
  it('sends once at the next hour that exists when the reminder hour is skipped', async () => {
    const acme = await business(SYDNEY);
    const pia = await addClient(acme, 'Pia', { time_zone: SYDNEY });
    await addVisit(acme, pia, '2027-10-04', '09:00', SYDNEY, { arrive: '09:00' });
    // hour 2 (the default) does not exist on 3 October: 01:59 AEST is 15:59Z, and the next instant is 03:00 AEDT.
    await scheduleReminders(t.ctx.db, new Date('2027-10-02T15:59:00Z'));
    expect(await t.ctx.db.select().from(reminderRuns).where(eq(reminderRuns.business_account_id, acme.businessAccountId))).toEqual([]);
    await scheduleReminders(t.ctx.db, new Date('2027-10-02T16:00:00Z'));
    const runs = await t.ctx.db.select().from(reminderRuns).where(eq(reminderRuns.business_account_id, acme.businessAccountId));
    expect(runs.map((run) => [run.visit_date, run.due_at.toISOString()])).toEqual([['2027-10-04', '2027-10-02T16:00:00.000Z']]);
    const now = new Date('2027-10-02T16:00:30Z');
    const result = await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', now });
    expect(result.sent).toBe(1);
    for (const later of ['2027-10-02T17:00:00Z', '2027-10-03T12:59:00Z']) await scheduleReminders(t.ctx.db, new Date(later));
    expect(await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', now: new Date('2027-10-03T13:00:00Z') })).toMatchObject({ sent: 0, listed: 0 });
    const [email, ...more] = await emailOf(pia);
    expect(more).toEqual([]);
    expect(email.text_body).toContain('Monday 4 October 2027');
    expect(email.text_body).toContain('between 8:30 am and 9:30 am, with Pat');
  });

  it('sends once, at the first of the two, when the reminder hour happens twice', async () => {
    const acme = await business(SYDNEY);
    const quin = await addClient(acme, 'Quin');
    await addVisit(acme, quin, '2027-04-05', '09:00', SYDNEY);
    await scheduleReminders(t.ctx.db, new Date('2027-04-03T14:59:00Z')); // 01:59 AEDT
    await scheduleReminders(t.ctx.db, new Date('2027-04-03T15:00:00Z')); // 02:00 AEDT, the first 02:00
    const runs = await t.ctx.db.select().from(reminderRuns).where(eq(reminderRuns.business_account_id, acme.businessAccountId));
    expect(runs.map((run) => run.due_at.toISOString())).toEqual(['2027-04-03T15:00:00.000Z']);
    expect((await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', now: new Date('2027-04-03T15:00:10Z') })).sent).toBe(1);
    await scheduleReminders(t.ctx.db, new Date('2027-04-03T16:00:00Z')); // 02:00 AEST, the second 02:00
    expect(await t.ctx.db.select().from(reminderRuns).where(eq(reminderRuns.business_account_id, acme.businessAccountId))).toHaveLength(1);
    expect((await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w', now: new Date('2027-04-03T16:00:10Z') })).sent).toBe(0);
    expect(await emailOf(quin)).toHaveLength(1);
  });
});

describe('the unsubscribe link', () => {
  it("turns the client's reminders off without a login, recorded as the client; forged links are refused", async () => {
    const acme = await business();
    const day = tomorrowIn(BRISBANE);
    const rae = await addClient(acme, 'Rae');
    await addVisit(acme, rae, day, '10:00', BRISBANE);
    await claimDay(acme, day);
    await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w' });
    const [email] = await emailOf(rae);
    const link = linkIn(email.text_body, '/client/reminders/unsubscribe');
    expect(email.html_body).toContain('Stop these reminders');
    const token = link.searchParams.get('token')!;

    for (const bad of ['nope', `${rae}.${'A'.repeat(32)}`, token.replace(/^\d+/, String(rae + 1))]) {
      const refused = await t.request('POST', '/api/public/reminders/unsubscribe', { body: { token: bad } });
      expect(refused.status, bad).toBe(422);
      expect(refused.body.message).toMatch(/This link is not valid/);
    }
    const done = await t.request('POST', '/api/public/reminders/unsubscribe', { body: { token } });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: "You won't get appointment reminders any more.", business_name: expect.stringMatching(/^rem\d+ Care$/) });
    expect((await t.request('GET', `/api/clients/${rae}`, { token: acme.tokens.admin })).body.client.reminders_enabled).toBe(false);
    const [version] = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Client'), eq(versions.item_id, rae))).orderBy(desc(versions.id)).limit(1);
    expect(version).toMatchObject({ whodunnit: 'Client (reminder unsubscribe link)', object_changes: { reminders_enabled: [true, false] } });
    expect((await t.request('POST', '/api/public/reminders/unsubscribe', { body: { token } })).status).toBe(200);

    // The next day's batch leaves the client out.
    const next = Temporal.PlainDate.from(day).add({ days: 1 }).toString();
    await addVisit(acme, rae, next, '10:00', BRISBANE);
    await claimDay(acme, next);
    expect(await runReminderBatch(t.ctx, { businessAccountId: acme.businessAccountId, workerId: 'w' })).toMatchObject({ listed: 0, sent: 0 });
  });
});

describe('the SMS channel', () => {
  let sms: Server;
  let smsApp: TestApp;
  const received: { url: string; authorization: string | undefined; form: URLSearchParams }[] = [];
  let answer = 201;
  beforeAll(async () => {
    sms = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        received.push({ url: request.url!, authorization: request.headers.authorization, form: new URLSearchParams(body) });
        response.writeHead(answer, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer < 300 ? { sid: `SM${received.length}`, status: 'queued' } : { code: 21211, message: "The 'To' number is not a valid phone number." }));
      });
    });
    await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
    const port = (sms.address() as AddressInfo).port;
    smsApp = await startTestApp({ sms: { url: `http://127.0.0.1:${port}/2010-04-01`, accountSid: 'AC123', authToken: 'secret-token', from: '+61400000000' } });
  });
  afterAll(async () => {
    await smsApp.close();
    await new Promise((resolve) => sms.close(resolve));
  });

  it("texts the client's first mobile number through the Twilio-compatible API, besides the email", async () => {
    const app = smsApp;
    const fixture = await createBusinessFixture(app, 'sms');
    const day = tomorrowIn(BRISBANE);
    const [sam, tia] = await app.ctx.db.insert(clients).values([
      { business_account_id: fixture.businessAccountId, first_name: 'Sam', email: 'sam@client.test', phone_numbers: [{ number: '07 3000 0000', phone_type: 'Home' }, { number: '0412 345 678', phone_type: 'Mobile' }, { number: '0499 999 999', phone_type: 'Mobile' }] },
      { business_account_id: fixture.businessAccountId, first_name: 'Tia', email: null, phone_numbers: [{ number: '07 3111 1111', phone_type: 'Home' }] },
    ]).returning();
    for (const client of [sam, tia]) {
      await app.ctx.db.insert(appointments).values({
        business_account_id: fixture.businessAccountId, client_id: client.id, practitioner_id: fixture.practitionerIds[1],
        starts_at: at(day, '13:00', BRISBANE), ends_at: at(day, '14:00', BRISBANE),
      });
    }
    await app.ctx.db.insert(reminderRuns).values({ business_account_id: fixture.businessAccountId, visit_date: day, due_at: new Date() });
    const result = await runReminderBatch(app.ctx, { businessAccountId: fixture.businessAccountId, workerId: 'w' });
    expect(result).toMatchObject({ listed: 2, sent: 2 });
    expect(received).toHaveLength(1);
    expect(received[0].url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(received[0].authorization).toBe(`Basic ${Buffer.from('AC123:secret-token').toString('base64')}`);
    expect(received[0].form.get('To')).toBe('0412 345 678');
    expect(received[0].form.get('From')).toBe('+61400000000');
    expect(received[0].form.get('Body')).toMatch(/^sms Care: reminder of your visit .+ at 1:00 pm with Quinn\. Stop reminders: http\S+\/client\/reminders\/unsubscribe\?token=/);
    const rows = await app.ctx.db.select().from(sentReminders).where(eq(sentReminders.client_id, sam.id));
    expect(rows.map((row) => [row.channel, row.status]).sort()).toEqual([['email', 'SENT'], ['sms', 'SENT']]);
    expect(await app.ctx.db.select().from(sentReminders).where(eq(sentReminders.client_id, tia.id))).toEqual([]);
  });

  it("retries a refused SMS and then reports the API's reason on the dashboard", async () => {
    const app = smsApp;
    const fixture = await createBusinessFixture(app, 'smsfail');
    const day = tomorrowIn(BRISBANE);
    const [uma] = await app.ctx.db.insert(clients).values({ business_account_id: fixture.businessAccountId, first_name: 'Uma', phone_numbers: [{ number: '0400', phone_type: 'Mobile' }] }).returning();
    await app.ctx.db.insert(appointments).values({
      business_account_id: fixture.businessAccountId, client_id: uma.id, practitioner_id: fixture.practitionerIds[0],
      starts_at: at(day, '08:00', BRISBANE), ends_at: at(day, '09:00', BRISBANE),
    });
    await app.ctx.db.insert(reminderRuns).values({ business_account_id: fixture.businessAccountId, visit_date: day, due_at: new Date() });
    answer = 400;
    const before = received.length;
    const result = await runReminderBatch(app.ctx, { businessAccountId: fixture.businessAccountId, workerId: 'w', settings: { retryDelayMs: 0 } });
    answer = 201;
    expect(result).toMatchObject({ sent: 0, failed: 1 });
    expect(received.length - before).toBe(3);
    const dashboard = await app.request('GET', '/api/dashboard', { token: fixture.tokens.staff });
    expect(dashboard.body.overview.failed_reminders.clients).toEqual([
      { client_id: uma.id, client_name: 'Uma', visit_date: day, channel: 'sms', error: "The SMS service answered 400: The 'To' number is not a valid phone number." },
    ]);
  });
});
