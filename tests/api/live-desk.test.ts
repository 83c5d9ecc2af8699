// The live desk's push (ADR 0022): a single-use ticket from an authenticated POST opens GET /api/live/events, which
// carries each committed change to the business's visits within 2 s (a step as kind "step" naming the visit), never
// another business's, and to a practitioner only their own practitioners'; open streams never hold the server's
// closing.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { appointments } from '../../server/src/db/schema';
import { MAX_STREAMS_PER_USER } from '../../server/src/modules/live';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let base: string;
let acme: BusinessFixture;
let other: BusinessFixture;
let keys = 0;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(() => t.close());

/** A visit of `business` planned to start now, 45 minutes long. */
async function addVisit(business: BusinessFixture, practitionerId = business.practitionerIds[0]): Promise<number> {
  const starts = new Date();
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: business.businessAccountId, client_id: business.clientIds[0], practitioner_id: practitionerId,
    appointment_type_id: business.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    lat: -27.467, lng: 153.047,
  }).returning({ id: appointments.id });
  return row.id;
}

const step = (id: number, token: string, kind = 'on_my_way') =>
  t.request('POST', `/api/appointments/${id}/steps`, { token, body: { idempotency_key: `live-${process.pid}-${(keys += 1)}`, step: kind } });

async function ticketFor(token: string): Promise<string> {
  const response = await t.request('POST', '/api/live/tickets', { token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.ticket;
}

interface Stream {
  status: number;
  contentType: string | undefined;
  /** The events received so far (each `data` parsed). */
  events: { kind: string; practitioner_id: number; appointment_id: number | null }[];
  /** Resolves with the first event `match` accepts, or rejects after `withinMs`. */
  next(match: (event: Stream['events'][number]) => boolean, withinMs: number): Promise<Stream['events'][number]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens the event stream over real HTTP (inject would wait for an end that never comes). */
function openStream(ticket: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}/api/live/events?ticket=${encodeURIComponent(ticket)}`, (res: IncomingMessage) => {
      const events: Stream['events'] = [];
      const waiting = new Set<() => void>();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)));
        }
        for (const check of waiting) check();
      });
      res.on('error', () => {});
      const ended = new Promise<void>((done) => res.on('end', done));
      resolve({
        status: res.statusCode!, contentType: res.headers['content-type'], events, ended,
        next: (match, withinMs) => new Promise((found, late) => {
          const check = () => {
            const event = events.find(match);
            if (!event) return;
            waiting.delete(check);
            clearTimeout(timer);
            found(event);
          };
          const timer = setTimeout(() => {
            waiting.delete(check);
            late(new Error(`no matching event within ${withinMs} ms; got ${JSON.stringify(events)}`));
          }, withinMs);
          waiting.add(check);
          check();
        }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the live desk stream', () => {
  it('tells the business\'s open desk of a step within 2 s, and another business\'s desk nothing', async () => {
    const visit = await addVisit(acme);
    const ours = await openStream(await ticketFor(acme.tokens.staff));
    const theirs = await openStream(await ticketFor(other.tokens.admin));
    try {
      expect(ours.status).toBe(200);
      expect(ours.contentType).toMatch(/^text\/event-stream/);
      // Within 2 s of the step's answer (its commit): on a busy machine the request itself may take longer.
      expect((await step(visit, acme.tokens.staff)).status).toBe(201);
      const event = await ours.next((received) => received.kind === 'step' && received.appointment_id === visit, 2_000);
      expect(event).toEqual({ kind: 'step', practitioner_id: acme.practitionerIds[0], appointment_id: visit });
      // A change to an appointment that is not a step (a move, an import) says so, without naming a visit.
      await t.request('PUT', `/api/appointments/${visit}`, { token: acme.tokens.staff, body: { notes: 'Gate code 1234' } });
      await t.ctx.db.update(appointments).set({ notes: 'Gate code 4321' }).where(eqId(visit));
      await ours.next((received) => received.kind === 'appointments', 2_000);
      // Their desk heard nothing of ours (a step of theirs proves their stream works meanwhile).
      const theirVisit = await addVisit(other);
      expect((await step(theirVisit, other.tokens.staff)).status).toBe(201);
      await theirs.next((received) => received.kind === 'step' && received.appointment_id === theirVisit, 2_000);
      expect(theirs.events.filter((received) => received.practitioner_id !== other.practitionerIds[0])).toEqual([]);
      expect(theirs.events.some((received) => received.appointment_id === visit)).toBe(false);
      expect(ours.events.some((received) => received.appointment_id === theirVisit)).toBe(false);
    } finally {
      ours.close();
      theirs.close();
    }
  });

  it("tells a practitioner only of their own practitioners' visits", async () => {
    const others = await addVisit(acme, acme.practitionerIds[1]);
    const own = await addVisit(acme, acme.ownPractitionerId);
    const stream = await openStream(await ticketFor(acme.tokens.practitioner));
    try {
      expect((await step(others, acme.tokens.staff)).status).toBe(201);
      expect((await step(own, acme.tokens.practitioner)).status).toBe(201);
      await stream.next((received) => received.appointment_id === own, 2_000);
      expect(stream.events.every((received) => received.practitioner_id === acme.ownPractitionerId)).toBe(true);
    } finally {
      stream.close();
    }
  });

  it('opens with a ticket once, within 30 s; never without one or with a made-up one', async () => {
    const ticket = await ticketFor(acme.tokens.staff);
    const first = await openStream(ticket);
    first.close();
    expect(first.status).toBe(200);
    const again = await t.request('GET', `/api/live/events?ticket=${ticket}`);
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/unknown, used or expired/);
    expect((await t.request('GET', '/api/live/events?ticket=made-up')).status).toBe(401);
    expect((await t.request('GET', '/api/live/events')).status).toBe(422);
    expect((await t.request('POST', '/api/live/tickets')).status).toBe(401);

    const late = await ticketFor(acme.tokens.staff);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    try {
      expect((await t.request('GET', `/api/live/events?ticket=${late}`)).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it(`lets one user hold ${MAX_STREAMS_PER_USER} streams: the next ends their oldest, and the others go on`, async () => {
    const streams: Stream[] = [];
    for (let index = 0; index <= MAX_STREAMS_PER_USER; index += 1) streams.push(await openStream(await ticketFor(acme.tokens.staff)));
    try {
      let oldestEnded = false;
      void streams[0].ended.then(() => { oldestEnded = true; });
      await vi.waitFor(() => expect(oldestEnded).toBe(true), { timeout: 2_000 });
      const visit = await addVisit(acme);
      expect((await step(visit, acme.tokens.practitioner)).status).toBe(201);
      await Promise.all(streams.slice(1).map((stream) => stream.next((event) => event.appointment_id === visit, 2_000)));
    } finally {
      for (const stream of streams) stream.close();
    }
  });

  it('never holds the server open: closing ends the open streams', async () => {
    const app = await startTestApp();
    try {
      const business = await createBusinessFixture(app, 'closing');
      await app.app.listen({ port: 0, host: '127.0.0.1' });
      const ticket = (await app.request('POST', '/api/live/tickets', { token: business.tokens.staff })).body.ticket;
      let endedAt = 0;
      const ended = new Promise<void>((resolve, reject) => {
        const req = httpRequest(`http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/api/live/events?ticket=${ticket}`, (res) => {
          expect(res.statusCode).toBe(200);
          res.resume();
          const done = () => {
            endedAt ||= Date.now();
            resolve();
          };
          res.on('end', done);
          res.on('close', done);
        });
        req.on('error', reject);
        req.end();
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      await app.close();
      await ended;
      // The stream ends as the closing starts, not when a time-out gives up on it.
      expect(endedAt - started).toBeLessThan(1_000);
    } catch (error) {
      await app.close().catch(() => {});
      throw error;
    }
  }, 60_000);
});

function eqId(id: number) {
  return sql`${appointments.id} = ${id}`;
}
