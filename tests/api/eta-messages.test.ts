// ETA messages to clients (issue 26, "The client"): On my way sends the client one message with about when the
// practitioner will arrive (from the phone's position by the travel provider, else the planned arrival), by SMS when
// configured and the client has a mobile, else by email; never twice for a retried or repeated step; none to a client
// who opted out, none when the business turned them off; no way to reach the client or a refused send is recorded
// with its reason and never fails the step; the visit's change log says what happened; roles and tenancy.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, businessAccounts, clients, outboxEmails } from '../../server/src/db/schema';
import { etaMessages } from '../../server/src/db/schema-reminders';
import { jobs } from '../../server/src/db/schema-jobs';
import { travelProviderFor } from '../../server/src/modules/schedule';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';
import { brisbaneAt } from './support/routing';

const ZONE = 'Australia/Brisbane';
// The visit's point (New Farm) and a phone about 5 km west of it.
const POINT = { lat: -27.467, lng: 153.047 };
const PHONE = { lat: -27.47, lng: 152.997 };

// The SMS API's stand-in (Twilio-compatible), as the reminders' tests use.
let sms: Server;
const texts: URLSearchParams[] = [];
let smsAnswer = 201;

let t: TestApp; // email only (no SMS_URL): the outbox
let s: TestApp; // with SMS
beforeAll(async () => {
  sms = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      texts.push(new URLSearchParams(body));
      response.writeHead(smsAnswer, { 'content-type': 'application/json' });
      response.end(JSON.stringify(smsAnswer < 300 ? { sid: `SM${texts.length}` } : { message: "The 'To' number is not a valid phone number." }));
    });
  });
  await new Promise<void>((resolve) => sms.listen(0, '127.0.0.1', resolve));
  const port = (sms.address() as AddressInfo).port;
  t = await startTestApp();
  s = await startTestApp({ sms: { url: `http://127.0.0.1:${port}/2010-04-01`, accountSid: 'AC1', authToken: 'token', from: '+61400000000' } });
}, 120_000);
afterAll(async () => {
  await t.close();
  await s.close();
  await new Promise((resolve) => sms.close(resolve));
});

let labels = 0;
async function business(app: TestApp): Promise<BusinessFixture> {
  const fixture = await createBusinessFixture(app, `eta${++labels}`);
  await app.ctx.db.update(businessAccounts).set({ time_zone: ZONE, contact_email: 'office@care.test', contact_phone: '07 3000 1234' })
    .where(eq(businessAccounts.id, fixture.businessAccountId));
  return fixture;
}

/** A client of the business and a visit of theirs with Pat today, booked (and planned to arrive) at 23:00 Brisbane. */
async function visitOf(app: TestApp, fixture: BusinessFixture, client: Partial<typeof clients.$inferInsert> = {}) {
  const [row] = await app.ctx.db.insert(clients).values({
    business_account_id: fixture.businessAccountId, first_name: 'Ella', last_name: `Eta${labels}`, email: `ella.${fixture.businessAccountId}@client.test`,
    lat: POINT.lat, lng: POINT.lng, ...client,
  }).returning();
  const starts = brisbaneAt(Temporal.Now.plainDateISO(ZONE).toString(), '23:00');
  const [visit] = await app.ctx.db.insert(appointments).values({
    business_account_id: fixture.businessAccountId, client_id: row.id, practitioner_id: fixture.practitionerIds[0],
    appointment_type_id: fixture.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    lat: POINT.lat, lng: POINT.lng,
  }).returning();
  return { clientId: row.id, email: row.email, id: visit.id, planned: starts };
}

let keys = 0;
const newKey = () => `eta-${process.pid}-${(keys += 1)}`;
function step(app: TestApp, id: number, body: Record<string, unknown>, token: string) {
  return app.request('POST', `/api/appointments/${id}/steps`, { token, body: { idempotency_key: newKey(), ...body } });
}

const recordsOf = (app: TestApp, id: number) => app.ctx.db.select().from(etaMessages).where(eq(etaMessages.appointment_id, id)).orderBy(asc(etaMessages.id));
const jobsOf = (app: TestApp, fixture: BusinessFixture) => app.ctx.db.select().from(jobs)
  .where(and(eq(jobs.business_account_id, fixture.businessAccountId), eq(jobs.kind, 'ETA_MESSAGE')));
const emailsTo = (app: TestApp, address: string) => app.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, address));
const clock = (instant: Date) => new Intl.DateTimeFormat('en-AU', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone: ZONE })
  .format(instant).replace(/\u202f/g, ' ');
async function changeLog(app: TestApp, fixture: BusinessFixture, id: number): Promise<string[]> {
  const details = await app.request('GET', `/api/appointments/${id}/extra_details`, { token: fixture.tokens.staff });
  expect(details.status).toBe(200);
  return (details.body.versions as { changes: { label: string }[] }[]).flatMap((version) => version.changes.map((change) => change.label));
}

/** The ETA from the phone's place: the step's time plus the travel provider's time to the visit's point, rounded up to 5 minutes. */
async function expectedEta(app: TestApp, stepAt: string): Promise<Date> {
  const matrix = await travelProviderFor(app.ctx.config).matrix([PHONE, POINT]);
  const step = 5 * 60_000;
  return new Date(Math.ceil((Date.parse(stepAt) + matrix.durations[1] * 1000) / step) * step);
}

describe('On my way', () => {
  it('texts the client once, with the arrival from the phone’s position, and the change log says so', async () => {
    const acme = await business(s);
    const visit = await visitOf(s, acme, { phone_numbers: [{ number: '07 3000 0000', phone_type: 'Home' }, { number: '0412 345 678', phone_type: 'Mobile' }] });
    const body = { step: 'on_my_way', ...PHONE, accuracy_m: 20, idempotency_key: newKey() };
    const first = await s.request('POST', `/api/appointments/${visit.id}/steps`, { token: acme.tokens.practitioner, body });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // The step answers before anything is sent: the message is a job of the queue.
    expect(await recordsOf(s, visit.id)).toEqual([]);
    const before = texts.length;
    await drainJobs(s.ctx);

    const eta = await expectedEta(s, first.body.step.at);
    const sent = texts.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].get('To')).toBe('0412 345 678');
    expect(sent[0].get('Body')).toMatch(new RegExp(
      `^Your practitioner Pat from eta\\d+ Care is on the way and should arrive at about ${clock(eta)}\\. Questions: 07 3000 1234\\. `
      + 'Stop messages: http\\S+/client/reminders/unsubscribe\\?token=\\S+$'));
    expect(await emailsTo(s, visit.email!)).toEqual([]); // SMS, not email as well
    const [record, ...more] = await recordsOf(s, visit.id);
    expect(more).toEqual([]);
    expect(record).toMatchObject({ kind: 'on_my_way', status: 'SENT', channel: 'sms', error: null, visit_step_id: first.body.step.id });
    expect(record.eta?.getTime()).toBe(eta.getTime());
    expect(record.planned_arrival.getTime()).toBe(visit.planned.getTime());
    expect(await changeLog(s, acme, visit.id)).toContainEqual(expect.stringMatching(new RegExp(`^ETA message sent by SMS at \\d\\d:\\d\\d \\(arrival about ${clock(eta)}\\)$`)));

    // The phone sends the same step again (its answer was lost): the first answer, no second job, no second text.
    const retry = await s.request('POST', `/api/appointments/${visit.id}/steps`, { token: acme.tokens.practitioner, body });
    expect(retry.status).toBe(200);
    expect(retry.body.step.id).toBe(first.body.step.id);
    await drainJobs(s.ctx);
    expect(await jobsOf(s, acme)).toHaveLength(1);
    expect(texts.length - before).toBe(1);

    // Reopened by the office and On my way again, the planned arrival unchanged: the client was told already.
    expect((await step(s, visit.id, { step: 'reopened' }, acme.tokens.staff)).status).toBe(201);
    expect((await step(s, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner)).status).toBe(201);
    await drainJobs(s.ctx);
    expect(texts.length - before).toBe(1);
    expect(await recordsOf(s, visit.id)).toHaveLength(1);
  });

  it('texts once for a burst of On my way taps, each sent with its own key (a phone tapped again and again)', async () => {
    const acme = await business(s);
    const visit = await visitOf(s, acme, { phone_numbers: [{ number: '0412 345 679', phone_type: 'Mobile' }] });
    const answers = await Promise.all(Array.from({ length: 8 }, () => step(s, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const before = texts.length;
    await drainJobs(s.ctx);
    expect(texts.length - before).toBe(1);
    expect(await jobsOf(s, acme)).toHaveLength(1);
    expect(await recordsOf(s, visit.id)).toHaveLength(1);
  });

  it('tells a client once per visit, however often its arrival changes and it is reopened (5 e-mails in 30 s before)', async () => {
    const acme = await business(t);
    const visit = await visitOf(t, acme);
    expect((await step(t, visit.id, { step: 'on_my_way' }, acme.tokens.practitioner)).status).toBe(201);
    await drainJobs(t.ctx);
    for (const minutes of [5, 10, 15, 20]) {
      // The office reopens it and moves its arrival; the practitioner taps On my way again.
      expect((await step(t, visit.id, { step: 'reopened' }, acme.tokens.staff)).status).toBe(201);
      const moved = await t.request('PUT', `/api/appointments/${visit.id}/update_arrival_time`, {
        token: acme.tokens.staff, body: { arrive_at: new Date(visit.planned.getTime() - minutes * 60_000).toISOString() },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect((await step(t, visit.id, { step: 'on_my_way' }, acme.tokens.practitioner)).status).toBe(201);
      await drainJobs(t.ctx);
    }
    expect(await emailsTo(t, visit.email!)).toHaveLength(1);
    expect(await recordsOf(t, visit.id)).toHaveLength(1);
  });

  it('holds back the business’s ETA messages beyond its rate a minute, recorded as not sent with the reason', async () => {
    const acme = await business(t);
    const visits = [];
    for (const n of [1, 2, 3]) visits.push(await visitOf(t, acme, { email: `rate${n}.${acme.businessAccountId}@client.test` }));
    const rate = t.ctx.config.etaMessagesPerMinute;
    t.ctx.config.etaMessagesPerMinute = 2;
    try {
      for (const visit of visits) expect((await step(t, visit.id, { step: 'on_my_way' }, acme.tokens.practitioner)).status).toBe(201);
      await drainJobs(t.ctx);
    } finally {
      t.ctx.config.etaMessagesPerMinute = rate;
    }
    const records = (await Promise.all(visits.map((visit) => recordsOf(t, visit.id)))).flat();
    expect(records.map((record) => record.status)).toEqual(['SENT', 'SENT', 'NOT_SENT']);
    const reason = "The business's limit of 2 ETA messages a minute was reached (ETA_MESSAGES_PER_MINUTE), so this one was held back.";
    expect(records[2].error).toBe(reason);
    expect(await emailsTo(t, visits[2].email!)).toEqual([]);
    expect(await changeLog(t, acme, visits[2].id)).toContain(`ETA message not sent: ${reason}`);
  });

  it('emails the client without SMS, from and signed as the business, with the planned arrival when the phone gave no place', async () => {
    const acme = await business(t);
    const visit = await visitOf(t, acme, { phone_numbers: [{ number: '0412 345 678', phone_type: 'Mobile' }] });
    const onTheWay = await step(t, visit.id, { step: 'on_my_way' }, acme.tokens.practitioner);
    expect(onTheWay.status).toBe(201);
    await drainJobs(t.ctx);
    // The planned arrival is told while it is still ahead of the step (a test run after 23:00 Brisbane tells no time).
    const ahead = visit.planned.getTime() >= Date.parse(onTheWay.body.step.at);
    const [email, ...more] = await emailsTo(t, visit.email!);
    expect(more).toEqual([]);
    expect(email.subject).toMatch(/^Pat from eta\d+ Care is on the way$/);
    expect(email.from_address).toMatch(/^"eta\d+ Care" </);
    expect(email.reply_to).toBe('office@care.test');
    expect(email.text_body).toContain('Hello Ella,');
    expect(email.text_body).toMatch(ahead
      ? new RegExp(`Your practitioner Pat from eta\\d+ Care is on the way and should arrive at about ${clock(visit.planned)}\\.`)
      : /Your practitioner Pat from eta\d+ Care is on the way\./);
    expect(email.text_body).toContain('eta');
    expect(email.text_body).toContain('07 3000 1234 · office@care.test');
    expect(email.text_body).toMatch(/To stop these messages and reminders: http\S+\/client\/reminders\/unsubscribe\?token=/);
    expect(email.html_body).toContain('Stop these messages and reminders');
    const [record] = await recordsOf(t, visit.id);
    expect(record).toMatchObject({ status: 'SENT', channel: 'email' });
    expect(record.eta?.getTime() ?? null).toBe(ahead ? visit.planned.getTime() : null);
    expect(await changeLog(t, acme, visit.id)).toContainEqual(expect.stringMatching(/^ETA message sent by email at \d\d:\d\d/));
  });

  it('sends nothing to a client who turned reminders off, and records why', async () => {
    const acme = await business(s);
    const visit = await visitOf(s, acme, { reminders_enabled: false, phone_numbers: [{ number: '0412 345 678', phone_type: 'Mobile' }] });
    const before = texts.length;
    expect((await step(s, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner)).status).toBe(201);
    await drainJobs(s.ctx);
    expect(texts.length).toBe(before);
    expect(await emailsTo(s, visit.email!)).toEqual([]);
    expect(await recordsOf(s, visit.id)).toMatchObject([{ status: 'NOT_SENT', channel: null, error: 'The client turned reminders and messages off.' }]);
    expect(await changeLog(s, acme, visit.id)).toContain('ETA message not sent: The client turned reminders and messages off.');
  });

  it('records a client it cannot reach as not sent, with the reason, and the step stands', async () => {
    const acme = await business(s);
    const visit = await visitOf(s, acme, { email: null, phone_numbers: [{ number: '07 3000 0000', phone_type: 'Home' }] });
    const onTheWay = await step(s, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner);
    expect(onTheWay.status).toBe(201);
    await drainJobs(s.ctx);
    expect(await recordsOf(s, visit.id)).toMatchObject([{ status: 'NOT_SENT', error: 'The client has no mobile number or email address.' }]);
    const [job] = await jobsOf(s, acme);
    expect(job.status).toBe('COMPLETE');
    expect((await s.request('GET', `/api/appointments/${visit.id}`, { token: acme.tokens.staff })).body.appointment.visit_state).toBe('on_my_way');
  });

  it('records a refused SMS as failed with the service’s reason, without failing the step or trying again', async () => {
    const acme = await business(s);
    const visit = await visitOf(s, acme, { phone_numbers: [{ number: 'not a number', phone_type: 'Mobile' }] });
    smsAnswer = 400;
    try {
      expect((await step(s, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner)).status).toBe(201);
      await drainJobs(s.ctx);
    } finally {
      smsAnswer = 201;
    }
    expect(await recordsOf(s, visit.id)).toMatchObject([{
      status: 'FAILED', channel: 'sms', error: "The SMS service answered 400: The 'To' number is not a valid phone number.",
    }]);
    expect(await jobsOf(s, acme)).toMatchObject([{ status: 'COMPLETE' }]);
    expect(await changeLog(s, acme, visit.id)).toContainEqual(expect.stringMatching(/^ETA message failed by SMS at \d\d:\d\d: The SMS service answered 400/));
  });

  it('sends nothing when the business turned ETA messages off in Account settings (admins only)', async () => {
    const acme = await business(t);
    const account = await t.request('GET', '/api/business_account', { token: acme.tokens.admin });
    expect(account.body.business_account.eta_messages_enabled).toBe(true);
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('PATCH', '/api/business_account', { token, body: { eta_messages_enabled: false } })).status).toBe(403);
    }
    expect((await t.request('PATCH', '/api/business_account', { token: acme.tokens.admin, body: { eta_messages_enabled: 'no' } })).status).toBe(422);
    const off = await t.request('PATCH', '/api/business_account', { token: acme.tokens.admin, body: { eta_messages_enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.business_account.eta_messages_enabled).toBe(false);

    const visit = await visitOf(t, acme);
    expect((await step(t, visit.id, { step: 'on_my_way', ...PHONE }, acme.tokens.practitioner)).status).toBe(201);
    await drainJobs(t.ctx);
    expect(await jobsOf(t, acme)).toEqual([]);
    expect(await recordsOf(t, visit.id)).toEqual([]);
    expect(await emailsTo(t, visit.email!)).toEqual([]);
  });

  it('only for the practitioner’s own visits of their own business; other steps send nothing', async () => {
    const acme = await business(t);
    const other = await business(t);
    const theirs = await visitOf(t, other);
    expect((await step(t, theirs.id, { step: 'on_my_way' }, acme.tokens.practitioner)).status).toBe(404);
    expect((await step(t, theirs.id, { step: 'on_my_way' }, acme.tokens.admin)).status).toBe(404);
    // A colleague's visit: the practitioner sees only their own.
    const colleagues = await visitOf(t, acme);
    await t.ctx.db.update(appointments).set({ practitioner_id: acme.practitionerIds[1] }).where(eq(appointments.id, colleagues.id));
    expect((await step(t, colleagues.id, { step: 'on_my_way' }, acme.tokens.practitioner)).status).toBe(404);
    // Arrived without On my way sends no ETA.
    const arrived = await visitOf(t, acme);
    expect((await step(t, arrived.id, { step: 'arrived', ...POINT }, acme.tokens.practitioner)).status).toBe(201);
    await drainJobs(t.ctx);
    expect(await jobsOf(t, acme)).toEqual([]);
    expect(await jobsOf(t, other)).toEqual([]);
    for (const visit of [theirs, colleagues, arrived]) {
      expect(await recordsOf(t, visit.id)).toEqual([]);
      expect(await emailsTo(t, visit.email!)).toEqual([]);
    }
  });
});
