// The booking and care endpoints (issue 36) as an attacker would try them: every account state that must not write
// (an invitation's token, a deactivated user, an expired session), another business's ids inside request bodies, bursts
// of the same request at once (one visit, one write; one apply; one fill), and huge or deeply nested bodies (4xx with a
// message, never 500). Each case checks that nothing was written.
import { and, desc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, outboxEmails, sessions } from '../../server/src/db/schema';
import { pmsWrites } from '../../server/src/db/schema-bookings';
import { carePlanAllocations, carePlans, openVisits } from '../../server/src/db/schema-care';
import { createUser } from '../../server/src/modules/business-account';
import { PASSWORD } from './support/fixtures';
import { freeClients, settle, startBookingWorld, stopBookingWorld, typeOf, type BookingWorld } from './support/bookings';

let world: BookingWorld;
let t: BookingWorld['t'];
const DAY = '2029-11-21'; // Wednesday

beforeAll(async () => {
  world = await startBookingWorld();
  t = world.t;
}, 180_000);
afterAll(() => stopBookingWorld(world));

const counts = async () => ({
  appointments: await t.ctx.db.$count(appointments),
  writes: await t.ctx.db.$count(pmsWrites),
  allocations: await t.ctx.db.$count(carePlanAllocations),
  plans: await t.ctx.db.$count(carePlans),
  openVisits: await t.ctx.db.$count(openVisits),
});

async function bookable(practitionerIndex = 0, clientIndex = 0, date = DAY) {
  const practitionerId = world.staff[practitionerIndex];
  return { client_id: (await freeClients(world, date))[clientIndex], appointment_type_id: await typeOf(world, practitionerId), practitioner_id: practitionerId };
}

const login = async (email: string, password = PASSWORD) => t.request('POST', '/api/auth/login', { body: { email, password } });

describe('an account that must not write', () => {
  it('an invited user who has not accepted cannot log in, and their invitation is no key: 401, nothing written', async () => {
    const email = 'invited-attacker@acme.test';
    const invited = await t.request('POST', '/api/users', { token: world.acme.tokens.admin, body: { email, first_name: 'Ivo', role: 'ADMIN' } });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect((await login(email)).status).toBe(401);
    const [sent] = await t.ctx.db.select().from(outboxEmails).where(eq(outboxEmails.to_address, email)).orderBy(desc(outboxEmails.id)).limit(1);
    const invitation = decodeURIComponent(/accept-invitation\?token=(\S+)/.exec(sent.text_body)![1]);
    const before = await counts();
    const body = { ...(await bookable()), starts_at: `${DAY}T17:00:00+10:00` };
    for (const token of [invitation, undefined]) {
      const booked = await t.request('POST', '/api/visits', { token, body });
      expect(booked.status).toBe(401);
      expect(booked.body.message).toEqual(expect.any(String));
      expect((await t.request('POST', '/api/care_plan_allocations', { token, body: { start_date: '2029-12-03', weeks: 1 } })).status).toBe(401);
    }
    expect(await counts()).toEqual(before);
  });

  it('a deactivated user\'s session no longer writes: 401, nothing written', async () => {
    const email = 'deactivated-attacker@acme.test';
    const user = await createUser(t.ctx.db, { businessAccountId: world.acme.businessAccountId, email, password: PASSWORD, first_name: 'Dex', role: 'ADMIN' });
    const token = (await login(email)).body.token as string;
    expect((await t.request('GET', '/api/visits/cancellation_reasons', { token })).status).toBe(200);
    expect((await t.request('POST', `/api/users/${user.id}/deactivate`, { token: world.acme.tokens.admin })).status).toBe(200);
    const before = await counts();
    const booked = await t.request('POST', '/api/visits', { token, body: { ...(await bookable()), starts_at: `${DAY}T17:00:00+10:00` } });
    expect(booked.status).toBe(401);
    expect((await t.request('POST', '/api/care_plan_allocations', { token, body: { start_date: '2029-12-03', weeks: 1 } })).status).toBe(401);
    expect((await login(email)).status).not.toBe(200);
    expect(await counts()).toEqual(before);
  });

  it('an expired session no longer writes: 401 saying so, nothing written', async () => {
    const email = 'expired-attacker@acme.test';
    const user = await createUser(t.ctx.db, { businessAccountId: world.acme.businessAccountId, email, password: PASSWORD, first_name: 'Eve', role: 'REGULAR_USER' });
    const token = (await login(email)).body.token as string;
    await t.ctx.db.update(sessions).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(sessions.user_id, user.id));
    const before = await counts();
    const booked = await t.request('POST', '/api/visits', { token, body: { ...(await bookable()), starts_at: `${DAY}T17:00:00+10:00` } });
    expect(booked.status).toBe(401);
    expect(booked.body.message).toMatch(/session has expired/);
    expect((await t.request('POST', '/api/care_plan_allocations', { token, body: { start_date: '2029-12-03', weeks: 1 } })).status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('a practitioner user may not book or allocate: 403, nothing written', async () => {
    const before = await counts();
    const token = world.acme.tokens.practitioner;
    expect((await t.request('POST', '/api/visits', { token, body: { ...(await bookable()), starts_at: `${DAY}T17:00:00+10:00` } })).status).toBe(403);
    expect((await t.request('POST', '/api/care_plan_allocations', { token, body: { start_date: '2029-12-03', weeks: 1 } })).status).toBe(403);
    expect(await counts()).toEqual(before);
  });
});

describe("another business's ids in a body", () => {
  it('POST /visits with any one of them (client, practitioner, type, location, open visit) answers 404/422 and books nothing', async () => {
    const { other } = world;
    const base = { ...(await bookable()), starts_at: `${DAY}T17:15:00+10:00` };
    const before = await counts();
    for (const swap of [
      { client_id: other.clientIds[0] }, { practitioner_id: other.practitionerIds[0] }, { appointment_type_id: other.appointmentTypeIds[0] },
      { business_location_id: other.businessLocationIds[0] }, { open_visit_id: other.openVisitIds[0] },
    ]) {
      const refused = await t.request('POST', '/api/visits', { token: world.acme.tokens.staff, body: { ...base, ...swap } });
      expect([404, 422], `${JSON.stringify(swap)} → ${refused.status} ${JSON.stringify(refused.body)}`).toContain(refused.status);
      expect(refused.body.message).toMatch(/not found/);
    }
    expect(await counts()).toEqual(before);
    // The other business's open visit is still open.
    const [theirs] = await t.ctx.db.select().from(openVisits).where(eq(openVisits.id, other.openVisitIds[0]));
    expect(theirs.state).toBe('open');
  });

  it("best fit, open visits, care plans and absences refuse another business's ids in the body, writing nothing", async () => {
    const { other, acme } = world;
    const token = acme.tokens.staff;
    const client = (await freeClients(world, DAY))[0];
    const type = await typeOf(world, world.staff[0]);
    const before = await counts();
    const refusals = [
      await t.request('POST', '/api/visits/best_fit', { token, body: { client_id: other.clientIds[0], appointment_type_id: type, date: DAY } }),
      await t.request('POST', '/api/visits/best_fit', { token, body: { client_id: client, appointment_type_id: other.appointmentTypeIds[0], date: DAY } }),
      await t.request('POST', '/api/open_visits', { token, body: { client_id: other.clientIds[0], appointment_type_id: type, date: '2029-12-04', window_start: '10:00', window_end: '12:00' } }),
      await t.request('POST', '/api/open_visits', { token, body: { client_id: client, appointment_type_id: other.appointmentTypeIds[0], date: '2029-12-04', window_start: '10:00', window_end: '12:00' } }),
      await t.request('POST', `/api/clients/${client}/care_plans`, { token, body: { appointment_type_id: other.appointmentTypeIds[0], weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03' } }),
      await t.request('POST', `/api/clients/${client}/care_plans`, {
        token, body: { appointment_type_id: type, weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03', preferred_practitioner_ids: [other.practitionerIds[0]] },
      }),
      await t.request('PATCH', `/api/care_plans/${acme.carePlanIds[0]}`, {
        token, body: { appointment_type_id: acme.appointmentTypeIds[0], weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', starts_on: '2031-01-06', preferred_practitioner_ids: [other.practitionerIds[0]] },
      }),
      await t.request('POST', `/api/clients/${other.clientIds[0]}/care_plans`, { token, body: { appointment_type_id: type, weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03' } }),
      await t.request('POST', `/api/clients/${other.clientIds[0]}/absences`, { token, body: { starts_on: '2029-12-17', ends_on: '2029-12-19', reason: 'away' } }),
      await t.request('POST', `/api/open_visits/${other.openVisitIds[0]}/fill`, { token, body: { practitioner_id: world.staff[0], starts_at: '2031-01-06T08:00:00+10:00' } }),
      await t.request('POST', `/api/care_plan_allocations/${other.allocationIds[0]}/apply`, { token }),
    ];
    for (const [index, refused] of refusals.entries()) {
      expect([404, 422], `#${index} → ${refused.status} ${JSON.stringify(refused.body)}`).toContain(refused.status);
      expect(refused.body.message, `#${index}`).toMatch(/not found/);
    }
    expect(await counts()).toEqual(before);
    const [plan] = await t.ctx.db.select().from(carePlans).where(eq(carePlans.id, acme.carePlanIds[0]));
    expect(plan.preferred_practitioner_ids ?? []).not.toContain(other.practitionerIds[0]);
  });
});

describe("another business's ids in the path", () => {
  it('rescheduling, cancelling, opening, ending and deleting them answers 404 and changes nothing', async () => {
    const { other, acme } = world;
    const token = acme.tokens.admin;
    const [theirVisit] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, other.appointmentIds[0]));
    const before = await counts();
    const refusals = [
      await t.request('PATCH', `/api/visits/${other.appointmentIds[0]}/reschedule`, { token, body: { starts_at: '2029-11-21T10:00:00+10:00' } }),
      await t.request('POST', `/api/visits/${other.appointmentIds[0]}/cancel`, { token, body: { reason: 50 } }),
      await t.request('POST', `/api/visits/${other.appointmentIds[0]}/open`, { token, body: {} }),
      await t.request('GET', `/api/care_plan_allocations/${other.allocationIds[0]}`, { token }),
      await t.request('POST', `/api/care_plans/${other.carePlanIds[0]}/end`, { token, body: { ends_on: '2031-02-01' } }),
      await t.request('DELETE', `/api/open_visits/${other.openVisitIds[0]}`, { token }),
      await t.request('DELETE', `/api/client_absences/${other.clientAbsenceIds[0]}`, { token }),
      await t.request('DELETE', `/api/public_holidays/${other.publicHolidayIds[0]}`, { token }),
    ];
    for (const [index, refused] of refusals.entries()) {
      expect(refused.status, `#${index} → ${JSON.stringify(refused.body)}`).toBe(404);
      expect(refused.body.message).toEqual(expect.any(String));
    }
    expect(await counts()).toEqual(before);
    const [after] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, other.appointmentIds[0]));
    expect(after).toEqual(theirVisit);
  });
});

describe('a burst of the same request', () => {
  it('10 POST /visits at once with the same request_id book one visit with one write, each answered the same visit', async () => {
    const body = { ...(await bookable(1)), starts_at: `${DAY}T19:00:00+10:00`, request_id: 'burst-request-0001' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', '/api/visits', { token: world.acme.tokens.staff, body })));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const ids = new Set(answers.map((answer) => answer.body.appointment.id));
    expect(ids.size).toBe(1);
    const [id] = ids;
    const booked = await t.ctx.db.select().from(appointments).where(and(eq(appointments.client_id, body.client_id), eq(appointments.practitioner_id, body.practitioner_id)));
    expect(booked.filter((row) => row.cancelled_at === null && row.starts_at.getTime() === Date.parse(body.starts_at))).toHaveLength(1);
    expect(await t.ctx.db.$count(pmsWrites, eq(pmsWrites.appointment_id, id))).toBe(1);
    await settle(world);
  });

  it('5 POST /visits at once for one practitioner at one time (different clients) book at most one', async () => {
    const practitionerId = world.staff[2];
    const type = await typeOf(world, practitionerId);
    const free = await freeClients(world, DAY);
    const starts_at = `${DAY}T19:30:00+10:00`;
    const answers = await Promise.all(free.slice(5, 10).map((client_id, index) => t.request('POST', '/api/visits', {
      token: world.acme.tokens.staff, body: { client_id, appointment_type_id: type, practitioner_id: practitionerId, starts_at, request_id: `race-client-${index}-0001` },
    })));
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body.message))).toEqual([201, 409, 409, 409, 409]);
    const booked = await t.ctx.db.select().from(appointments).where(and(eq(appointments.practitioner_id, practitionerId), eq(appointments.starts_at, new Date(starts_at))));
    expect(booked.filter((row) => row.cancelled_at === null)).toHaveLength(1);
    await settle(world);
  });

  it('5 reschedules at once of different visits into one practitioner\'s same slot move at most one there', async () => {
    const practitionerId = world.staff[0];
    const type = await typeOf(world, practitionerId);
    const date = '2029-12-06';
    const free = await freeClients(world, date);
    const ids: number[] = [];
    for (const [index, client_id] of free.slice(0, 5).entries()) {
      const booked = await t.request('POST', '/api/visits', {
        token: world.acme.tokens.staff, body: { client_id, appointment_type_id: type, practitioner_id: practitionerId, starts_at: `${date}T${String(6 + index * 2).padStart(2, '0')}:00:00+10:00`, duration_minutes: 30 },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      ids.push(booked.body.appointment.id);
    }
    await settle(world);
    const starts_at = `${date}T19:00:00+10:00`;
    const answers = await Promise.all(ids.map((id) => t.request('PATCH', `/api/visits/${id}/reschedule`, { token: world.acme.tokens.staff, body: { starts_at } })));
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body.message))).toEqual([200, 409, 409, 409, 409]);
    const there = await t.ctx.db.select().from(appointments).where(and(eq(appointments.practitioner_id, practitionerId), eq(appointments.starts_at, new Date(starts_at))));
    expect(there.filter((row) => row.cancelled_at === null)).toHaveLength(1);
    await settle(world);
  });

  it('5 fills at once of different open visits into one practitioner\'s same slot book at most one', async () => {
    const practitionerId = world.staff[1];
    const type = await typeOf(world, practitionerId);
    const date = '2029-12-05';
    const free = await freeClients(world, date);
    const ids: number[] = [];
    for (const client_id of free.slice(10, 15)) {
      const created = await t.request('POST', '/api/open_visits', {
        token: world.acme.tokens.staff, body: { client_id, appointment_type_id: type, date, window_start: '14:00', window_end: '16:00' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.open_visit.id);
    }
    const starts_at = `${date}T14:30:00+10:00`;
    const answers = await Promise.all(ids.map((id) => t.request('POST', `/api/open_visits/${id}/fill`, { token: world.acme.tokens.staff, body: { practitioner_id: practitionerId, starts_at } })));
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body.message))).toEqual([201, 409, 409, 409, 409]);
    const there = await t.ctx.db.select().from(appointments).where(and(eq(appointments.practitioner_id, practitionerId), eq(appointments.starts_at, new Date(starts_at))));
    expect(there.filter((row) => row.cancelled_at === null)).toHaveLength(1);
    await settle(world);
  });

  it('5 fills of one open visit at once: one 201, the rest 409, one visit booked', async () => {
    const client = (await freeClients(world, '2029-12-04'))[2];
    const type = await typeOf(world, world.staff[1]);
    const created = await t.request('POST', '/api/open_visits', {
      token: world.acme.tokens.staff, body: { client_id: client, appointment_type_id: type, date: '2029-12-04', window_start: '10:00', window_end: '12:00' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.open_visit.id;
    const before = await t.ctx.db.$count(appointments, eq(appointments.client_id, client));
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.request('POST', `/api/open_visits/${id}/fill`, {
      token: world.acme.tokens.staff, body: { practitioner_id: world.staff[1], starts_at: '2029-12-04T10:30:00+10:00' },
    })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await t.ctx.db.$count(appointments, eq(appointments.client_id, client))).toBe(before + 1);
    const [row] = await t.ctx.db.select().from(openVisits).where(eq(openVisits.id, id));
    expect(row.state).toBe('filled');
    await settle(world);
  });

  it('5 applies of one allocation at once: one 200, the rest 409, each open visit booked once', async () => {
    const client = (await freeClients(world, '2029-12-10'))[3];
    await t.ctx.db.update(clients).set({ availability: [] }).where(eq(clients.id, client));
    // Only this plan's open visits in the allocation's week.
    await t.ctx.db.update(openVisits).set({ state: 'removed' }).where(eq(openVisits.state, 'open'));
    const type = await typeOf(world, world.staff[0]);
    const plan = await t.request('POST', `/api/clients/${client}/care_plans`, {
      token: world.acme.tokens.staff, body: { appointment_type_id: type, weekdays: [1, 3, 5], window_start: '07:30', window_end: '09:00', duration_minutes: 45, starts_on: '2029-12-10', ends_on: '2029-12-16' },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const started = await t.request('POST', '/api/care_plan_allocations', { token: world.acme.tokens.staff, body: { start_date: '2029-12-10', weeks: 1 } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await settle(world);
    const done = (await t.request('GET', `/api/care_plan_allocations/${started.body.allocation.id}`, { token: world.acme.tokens.staff })).body.allocation;
    expect(done.status, done.message).toBe('DONE');
    expect(done.figures.placed).toBe(3);
    const answers = await Promise.all(Array.from({ length: 5 }, () => t.request('POST', `/api/care_plan_allocations/${done.id}/apply`, { token: world.acme.tokens.staff })));
    expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual([200, 409, 409, 409, 409]);
    const booked = await t.ctx.db.select().from(appointments).where(and(eq(appointments.client_id, client), gte(appointments.starts_at, new Date('2029-12-09T14:00:00Z'))));
    expect(booked.filter((row) => row.cancelled_at === null)).toHaveLength(3);
    const planVisits = await t.ctx.db.select().from(openVisits).where(eq(openVisits.care_plan_id, plan.body.care_plan.id));
    expect(planVisits.map((row) => row.state)).toEqual(['filled', 'filled', 'filled']);
    expect(new Set(planVisits.map((row) => row.appointment_id)).size).toBe(3);
    await settle(world);
  });
});

describe('an allocation applied while its open visits are filled by hand', () => {
  it('books each open visit once, answers no 500 (a two-carer occurrence and a fill of its second carer at once)', async () => {
    const client = (await freeClients(world, '2029-12-17'))[4];
    await t.ctx.db.update(clients).set({ availability: [] }).where(eq(clients.id, client));
    await t.ctx.db.update(openVisits).set({ state: 'removed' }).where(eq(openVisits.state, 'open'));
    const type = await typeOf(world, world.staff[0], world.staff[1]);
    const plan = await t.request('POST', `/api/clients/${client}/care_plans`, {
      token: world.acme.tokens.staff, body: { appointment_type_id: type, weekdays: [1, 3], window_start: '07:30', window_end: '09:00', duration_minutes: 45, carers: 2, starts_on: '2029-12-17', ends_on: '2029-12-23' },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const started = await t.request('POST', '/api/care_plan_allocations', { token: world.acme.tokens.staff, body: { start_date: '2029-12-17', weeks: 1 } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await settle(world);
    const done = (await t.request('GET', `/api/care_plan_allocations/${started.body.allocation.id}`, { token: world.acme.tokens.staff })).body.allocation;
    expect(done.status, done.message).toBe('DONE');
    const planVisits = await t.ctx.db.select().from(openVisits).where(eq(openVisits.care_plan_id, plan.body.care_plan.id)).orderBy(openVisits.id);
    expect(planVisits).toHaveLength(4);
    const fills = planVisits.map((visit) => t.request('POST', `/api/open_visits/${visit.id}/fill`, {
      token: world.acme.tokens.staff, body: { practitioner_id: world.staff[1], starts_at: `${visit.date}T08:15:00+10:00` },
    }));
    const answers = await Promise.all([t.request('POST', `/api/care_plan_allocations/${done.id}/apply`, { token: world.acme.tokens.staff }), ...fills]);
    for (const answer of answers) expect([200, 201, 409, 422], JSON.stringify(answer.body)).toContain(answer.status);
    const after = await t.ctx.db.select().from(openVisits).where(eq(openVisits.care_plan_id, plan.body.care_plan.id));
    const filled = after.filter((row) => row.state === 'filled');
    expect(new Set(filled.map((row) => row.appointment_id)).size).toBe(filled.length);
    const booked = await t.ctx.db.select().from(appointments).where(and(eq(appointments.client_id, client), gte(appointments.starts_at, new Date('2029-12-16T14:00:00Z'))));
    expect(booked.filter((row) => row.cancelled_at === null)).toHaveLength(filled.length);
    await settle(world);
  });
});

describe('huge or deeply nested bodies', () => {
  /** JSON text of objects nested `depth` deep (too deep for JSON.stringify to build from objects). */
  const NESTED = '"__nested__"';
  const nested = (depth: number) => ({ depth });
  const text = (body: unknown) => {
    let depth = 0;
    const json = JSON.stringify(body, (_key, value) => {
      if (value && typeof value === 'object' && Object.keys(value).length === 1 && typeof value.depth === 'number') {
        depth = value.depth;
        return '__nested__';
      }
      return value;
    });
    return json.replace(NESTED, `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`);
  };
  it('answer 4xx with a message, never 500, and write nothing', async () => {
    const token = world.acme.tokens.admin;
    const base = { ...(await bookable(2)), starts_at: `${DAY}T17:45:00+10:00` };
    const client = base.client_id;
    const before = await counts();
    const attempts: Array<[string, string, unknown]> = [
      ['POST', '/api/visits', { ...base, notes: 'n'.repeat(1_000_000) }],
      ['POST', '/api/visits', { ...base, notes: 'n'.repeat(1001) }],
      ['POST', '/api/visits', { ...base, notes: nested(5000) }],
      ['POST', '/api/visits', { ...base, extra: nested(200) }],
      ['POST', '/api/visits', { ...base, client_id: nested(50) }],
      ['POST', '/api/visits', { ...base, request_id: 'r'.repeat(100_000) }],
      ['POST', '/api/visits/best_fit', { client_id: client, appointment_type_id: base.appointment_type_id, date: DAY, extra: nested(1000) }],
      ['POST', `/api/clients/${client}/care_plans`, { appointment_type_id: base.appointment_type_id, weekdays: Array.from({ length: 10_000 }, (_, index) => (index % 7) + 1), window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03' }],
      ['POST', `/api/clients/${client}/care_plans`, { appointment_type_id: base.appointment_type_id, weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03', preferred_practitioner_ids: Array.from({ length: 10_000 }, (_, index) => index + 1) }],
      ['POST', `/api/clients/${client}/care_plans`, { appointment_type_id: base.appointment_type_id, weekdays: [1], window_start: '07:30', window_end: '09:00', starts_on: '2029-12-03', notes: 'n'.repeat(1_000_000) }],
      ['PATCH', `/api/care_plans/${world.acme.carePlanIds[0]}`, { appointment_type_id: world.acme.appointmentTypeIds[0], weekdays: Array.from({ length: 10_000 }, () => 1), window_start: '07:30', window_end: '09:00', starts_on: '2031-01-06' }],
      ['POST', '/api/open_visits', { client_id: client, appointment_type_id: base.appointment_type_id, date: '2029-12-04', window_start: '10:00', window_end: '12:00', notes: nested(3000) }],
      ['POST', `/api/clients/${client}/absences`, { starts_on: '2029-12-17', ends_on: '2029-12-19', reason: 'away', note: 'r'.repeat(1_000_000) }],
      ['POST', '/api/public_holidays', { date: '2029-12-25', name: nested(2000) }],
      ['POST', '/api/care_plan_allocations', { start_date: '2029-12-03', weeks: 100_000 }],
      ['POST', '/api/care_plan_allocations', { start_date: nested(100), weeks: 1 }],
    ];
    for (const [method, url, body] of attempts) {
      const answer = await t.request(method, url, { token, rawBody: text(body) });
      expect(answer.status >= 400 && answer.status < 500, `${method} ${url} → ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(true);
      expect(answer.body.message).toEqual(expect.any(String));
    }
    // A body past the server's limit as raw text too.
    const raw = await t.request('POST', '/api/visits', { token, rawBody: `{"notes":"${'n'.repeat(3_000_000)}"}` });
    expect([400, 413, 422]).toContain(raw.status);
    expect(await counts()).toEqual(before);
  });
});
