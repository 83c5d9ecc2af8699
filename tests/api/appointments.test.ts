import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointmentTypes, appointments, clients, practitioners, resourceMaps, routes } from '../../server/src/db/schema';
import { exportHistoryEntries, importHistoryEntries } from '../../server/src/db/schema-sync';
import { isOutsideAvailability } from '../../src/lib/availability';
import { recordVersion } from '../../server/src/modules/audit';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
const roles = ['admin', 'staff', 'practitioner'] as const;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t.close());

// Fixture appointments start on Tuesday 2026-11-24 at 09:00, 10:00, 11:00 and 12:00 in Brisbane (45 minutes each);
// appointmentIds[i] belongs to practitionerIds[i % 2] and the PRACTITIONER user is associated with practitionerIds[0].
const DAY = '2026-11-24';
const range = (start = DAY, end = DAY, extra = '') => `/api/appointments?start_date=${start}&end_date=${end}${extra}`;
const ids = (body: { appointments: { id: number }[] }) => body.appointments.map((appointment) => appointment.id);

describe('GET /api/appointments', () => {
  it('lists the day for ADMIN and REGULAR_USER, ordered by start, with what the table and warning need', async () => {
    for (const role of ['admin', 'staff'] as const) {
      const response = await t.request('GET', range(), { token: acme.tokens[role] });
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual(acme.appointmentIds);
    }
    const { body } = await t.request('GET', range(), { token: acme.tokens.admin });
    const first = body.appointments[0];
    expect(first).toEqual({
      id: acme.appointmentIds[0], starts_at: '2026-11-23T23:00:00.000Z', ends_at: '2026-11-23T23:45:00.000Z', arrive_at: '2026-11-23T23:00:00.000Z',
      status: 'BOOKED', suburb: 'New Farm', route_id: null, lat: expect.any(Number), lng: expect.any(Number), geo_precision: 'address',
      client_id: acme.clientIds[0], practitioner_id: acme.practitionerIds[0], appointment_type_id: acme.appointmentTypeIds[0],
      business_location_id: acme.businessLocationIds[0], client_availability: null, partner: null, visit_state: 'not_started', visit: null, pms_write_state: null,
    });
    // What the appointments name comes once each beside them.
    expect(body.practitioners).toEqual([
      { id: acme.practitionerIds[0], full_name: 'Pat acme-One', time_zone: 'Australia/Brisbane', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
      { id: acme.practitionerIds[1], full_name: expect.any(String), time_zone: 'Australia/Brisbane', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
    ]);
    expect(body.appointment_types).toEqual([{ id: acme.appointmentTypeIds[0], name: 'Nursing visit', duration: 45, color: '#dc2626' }]);
    const client = body.clients.find((item: { id: number }) => item.id === acme.clientIds[0]);
    expect(client).toEqual({ id: acme.clientIds[0], full_name: 'Cora acme-Client', time_zone: 'Australia/Brisbane', availability: [{ dow: 1, hours: ['09:00-12:00'] }] });
    expect(body.meta).toEqual({ total: 4, page: 1, per_page: 4 });
    // The client is available on Mondays only, so this Tuesday visit is outside their availability.
    expect(isOutsideAvailability({
      arriveAt: first.arrive_at, availability: client.availability, clientTimeZone: client.time_zone, practitionerTimeZone: body.practitioners[0].time_zone,
    })).toBe(true);
  });

  it('answers one page of the range with per_page, and the total over all pages', async () => {
    // Twelve visits on Thursday 26th, 08:00 to 08:11 Brisbane, alternating practitioners.
    const extra = await t.ctx.db.insert(appointments).values(Array.from({ length: 12 }, (_, index) => ({
      business_account_id: acme.businessAccountId, client_id: acme.clientIds[index % 2], practitioner_id: acme.practitionerIds[index % 2],
      starts_at: new Date(Date.parse('2026-11-25T22:00:00Z') + index * 60_000), ends_at: new Date(Date.parse('2026-11-25T23:00:00Z') + index * 60_000),
    }))).returning({ id: appointments.id });
    try {
      const get = async (extra: string) => (await t.request('GET', range('2026-11-26', '2026-11-26', extra), { token: acme.tokens.admin })).body;
      const first = await get('&per_page=10');
      expect(first.meta).toEqual({ total: 12, page: 1, per_page: 10 });
      expect(ids(first)).toEqual(extra.slice(0, 10).map((row) => row.id));
      const second = await get('&per_page=10&page=2');
      expect(ids(second)).toEqual(extra.slice(10).map((row) => row.id));
      expect(second.meta).toEqual({ total: 12, page: 2, per_page: 10 });
      expect(second.practitioners).toHaveLength(2);
      const beyond = await get('&per_page=10&page=3');
      expect(beyond).toEqual({ appointments: [], clients: [], practitioners: [], appointment_types: [], meta: { total: 12, page: 3, per_page: 10 } });
      const refused = await t.request('GET', range(DAY, DAY, '&per_page=7'), { token: acme.tokens.admin });
      expect(refused.status).toBe(422);
      expect(refused.body.message).toMatch(/per_page must be one of/);
    } finally {
      await t.ctx.db.delete(appointments).where(inArray(appointments.id, extra.map((row) => row.id)));
    }
  });

  it('names only what the listed page refers to', async () => {
    const { body } = await t.request('GET', range(DAY, DAY, `&practitioner_ids=${acme.practitionerIds[1]}`), { token: acme.tokens.admin });
    expect(body.practitioners.map((practitioner: { id: number }) => practitioner.id)).toEqual([acme.practitionerIds[1]]);
    expect(new Set(body.clients.map((client: { id: number }) => client.id))).toEqual(new Set(body.appointments.map((appointment: { client_id: number }) => appointment.client_id)));
  });

  it("gives a PRACTITIONER only their associated practitioners' appointments, even when asking for others", async () => {
    const own = await t.request('GET', range(), { token: acme.tokens.practitioner });
    expect(ids(own.body)).toEqual([acme.appointmentIds[0], acme.appointmentIds[2]]);
    expect(own.body.practitioners.map((practitioner: { id: number }) => practitioner.id)).toEqual([acme.practitionerIds[0]]);
    const asked = await t.request('GET', range(DAY, DAY, `&practitioner_ids=${acme.practitionerIds[1]}`), { token: acme.tokens.practitioner });
    expect(ids(asked.body)).toEqual([]);
  });

  it('reads dates as days in the business time zone', async () => {
    // 2026-11-23T23:00Z is already the 24th in Brisbane
    expect(ids((await t.request('GET', range('2026-11-23', '2026-11-23'), { token: acme.tokens.admin })).body)).toEqual([]);
    expect(ids((await t.request('GET', range('2026-11-20', '2026-11-24'), { token: acme.tokens.admin })).body)).toHaveLength(4);
    expect(ids((await t.request('GET', range('2026-11-25', '2026-11-30'), { token: acme.tokens.admin })).body)).toEqual([]);
  });

  it('filters by practitioner, appointment type and business location (one or several values)', async () => {
    const get = async (extra: string) => ids((await t.request('GET', range(DAY, DAY, extra), { token: acme.tokens.admin })).body);
    expect(await get(`&practitioner_ids=${acme.practitionerIds[1]}`)).toEqual([acme.appointmentIds[1], acme.appointmentIds[3]]);
    expect(await get(`&practitioner_ids=${acme.practitionerIds[0]}&practitioner_ids=${acme.practitionerIds[1]}`)).toHaveLength(4);
    expect(await get(`&appointment_type_ids=${acme.appointmentTypeIds[1]}`)).toEqual([]);
    expect(await get(`&appointment_type_ids=${acme.appointmentTypeIds[0]}`)).toHaveLength(4);
    expect(await get(`&business_location_ids=${acme.businessLocationIds[0]}`)).toHaveLength(4);
    expect(await get(`&business_location_ids=${other.businessLocationIds[0]}`)).toEqual([]);
  });

  it('includes cancelled appointments with status CANCELLED', async () => {
    await t.ctx.db.update(appointments).set({ cancelled_at: new Date('2026-11-20T00:00:00Z') }).where(eq(appointments.id, acme.appointmentIds[3]));
    const { body } = await t.request('GET', range(), { token: acme.tokens.admin });
    expect(body.appointments[3]).toMatchObject({ id: acme.appointmentIds[3], status: 'CANCELLED' });
    expect((await t.request('GET', `/api/appointments/${acme.appointmentIds[3]}`, { token: acme.tokens.admin })).body.appointment)
      .toMatchObject({ status: 'CANCELLED', cancelled_at: '2026-11-20T00:00:00.000Z' });
    await t.ctx.db.update(appointments).set({ cancelled_at: null }).where(eq(appointments.id, acme.appointmentIds[3]));
  });

  it('answers a repeated list from memory, but never one older than the data', async () => {
    const get = async (token = acme.tokens.admin) => (await t.request('GET', range(), { token })).body;
    const first = await get();
    expect(await get()).toEqual(first);
    const [client, practitioner, type] = [acme.clientIds[0], acme.practitionerIds[0], acme.appointmentTypeIds[0]];
    const changes: [string, () => Promise<unknown>, (body: typeof first) => unknown, unknown][] = [
      ['an arrival time through the API', () => t.request('PUT', `/api/appointments/${acme.appointmentIds[1]}/update_arrival_time`, {
        token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:05:00+10:00' },
      }), (body) => body.appointments[1].arrive_at, '2026-11-24T00:05:00.000Z'],
      ["a client's availability", () => t.ctx.db.update(clients).set({ availability: [{ dow: 2 }] }).where(eq(clients.id, client)),
        (body) => body.clients.find((item: { id: number }) => item.id === client).availability, [{ dow: 2 }]],
      ["a practitioner's name", () => t.ctx.db.update(practitioners).set({ first_name: 'Patricia' }).where(eq(practitioners.id, practitioner)),
        (body) => body.practitioners[0].full_name, 'Patricia acme-One'],
      ["an appointment type's colour", () => t.ctx.db.update(appointmentTypes).set({ color: '#000000' }).where(eq(appointmentTypes.id, type)),
        (body) => body.appointment_types[0].color, '#000000'],
    ];
    for (const [what, change, read, expected] of changes) {
      await change();
      expect(read(await get()), what).toEqual(expected);
    }
    // Each business has its own version: the other business's list is untouched and still right.
    expect(ids(await get(other.tokens.admin))).toEqual(other.appointmentIds);
    await t.ctx.db.update(appointments).set({ arrive_at: new Date('2026-11-24T00:00:00Z') }).where(eq(appointments.id, acme.appointmentIds[1]));
    await t.ctx.db.update(clients).set({ availability: [{ dow: 1, hours: ['09:00-12:00'] }] }).where(eq(clients.id, client));
    await t.ctx.db.update(practitioners).set({ first_name: 'Pat' }).where(eq(practitioners.id, practitioner));
    await t.ctx.db.update(appointmentTypes).set({ color: '#dc2626' }).where(eq(appointmentTypes.id, type));
    expect(await get()).toEqual(first);
  });

  it('never lists another business’s appointments', async () => {
    const { body } = await t.request('GET', range(), { token: other.tokens.admin });
    expect(ids(body)).toEqual(other.appointmentIds);
    expect(body.clients.every((client: { id: number }) => other.clientIds.includes(client.id))).toBe(true);
    expect(body.practitioners.every((practitioner: { id: number }) => other.practitionerIds.includes(practitioner.id))).toBe(true);
  });

  it('rejects a missing, malformed, reversed or too long range with 422 and a message', async () => {
    const cases: [string, RegExp][] = [
      ['/api/appointments?start_date=2026-11-24', /end_date is required/],
      [range('24/11/2026'), /start_date must match format "date"/],
      [range('2026-02-30', '2026-03-01'), /start_date must match format "date"/],
      [range('2026-11-24', '2026-11-23'), /end_date must be on or after start_date/],
      [range('2026-11-01', '2027-01-02'), /limited to 62 days \(asked for 63\)/],
      [range(DAY, DAY, '&practitioner_ids=abc'), /practitioner_ids\[0\] must be integer/],
    ];
    for (const [url, message] of cases) {
      const response = await t.request('GET', url, { token: acme.tokens.admin });
      expect(response.status, url).toBe(422);
      expect(response.body.message).toMatch(message);
    }
    expect((await t.request('GET', range('2026-11-01', '2027-01-01'), { token: acme.tokens.admin })).status).toBe(200);
  });

  it('requires a session', async () => {
    expect((await t.request('GET', range())).status).toBe(401);
  });
});

describe('GET /api/appointments/{id}', () => {
  it('answers every role for an appointment in its scope', async () => {
    for (const role of roles) {
      const response = await t.request('GET', `/api/appointments/${acme.appointmentIds[0]}`, { token: acme.tokens[role] });
      expect(response.status).toBe(200);
      expect(response.body.appointment.id).toBe(acme.appointmentIds[0]);
    }
  });

  it("answers 404 for another practitioner's appointment to a PRACTITIONER, and across businesses", async () => {
    const notMine = await t.request('GET', `/api/appointments/${acme.appointmentIds[1]}`, { token: acme.tokens.practitioner });
    expect(notMine.status).toBe(404);
    expect(notMine.body.message).toBe('Appointment not found.');
    expect((await t.request('GET', `/api/appointments/${acme.appointmentIds[1]}/extra_details`, { token: acme.tokens.practitioner })).status).toBe(404);
    expect((await t.request('GET', `/api/appointments/${other.appointmentIds[0]}`, { token: acme.tokens.admin })).status).toBe(404);
    expect((await t.request('GET', `/api/appointments/${other.appointmentIds[0]}/extra_details`, { token: acme.tokens.admin })).status).toBe(404);
  });
});

describe('PUT /api/appointments/{id}/update_arrival_time', () => {
  const url = (id: number) => `/api/appointments/${id}/update_arrival_time`;

  it("lets the office correct a past day's arrival, recorded as a correction with its author; the practitioner whose record it is cannot (issue 34)", async () => {
    const id = acme.appointmentIds[0]; // Tuesday 24 November 2026, a day that has passed
    const byPractitioner = await t.request('PUT', url(id), { token: acme.tokens.practitioner, body: { arrive_at: '2026-11-24T08:35:00+10:00' } });
    expect(byPractitioner.status).toBe(403);
    expect(byPractitioner.body.message).toBe("Only the office can correct a past day's arrival time: ask a coordinator.");
    const response = await t.request('PUT', url(id), { token: acme.tokens.staff, body: { arrive_at: '2026-11-24T08:35:00+10:00' } });
    expect(response.status).toBe(200);
    expect(response.body.appointment.arrive_at).toBe('2026-11-23T22:35:00.000Z');
    const second = await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-23T23:10:00Z' } });
    expect(second.status).toBe(200);
    const details = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff });
    expect(details.status).toBe(200);
    expect(details.body.versions.map((v: { whodunnit: string; event: string; object_changes: unknown; reason: string | null }) => [v.whodunnit, v.event, v.object_changes, v.reason])).toEqual([
      ["Sid", "update", { arrive_at: ['2026-11-23T23:00:00.000Z', '2026-11-23T22:35:00.000Z'] }, "Corrected after the visit's day"],
      ['Ada acme', 'update', { arrive_at: ['2026-11-23T22:35:00.000Z', '2026-11-23T23:10:00.000Z'] }, "Corrected after the visit's day"],
    ]);
    const times = details.body.versions.map((v: { created_at: string }) => v.created_at);
    expect([...times].sort()).toEqual(times);
  });

  it('accepts arrivals within the booked-time tolerance (the type’s, else the business’s) and refuses others, and another day, with 422 messages', async () => {
    const id = acme.appointmentIds[2]; // 11:00–11:45 on Tuesday 24 November; the business's tolerance is 30 minutes
    // Only the tolerance here: the client's 09:00 visit would otherwise be too close (the client gap has its own tests).
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { client_gap_minutes: 0 } })).status).toBe(200);
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T11:30:00+10:00' } })).status).toBe(200);
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:30:00+10:00' } })).status).toBe(200);
    const late = await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T11:31:00+10:00' } });
    expect(late.status).toBe(422);
    expect(late.body.message).toBe(
      "The arrival time must be between 10:30 and 11:30 on Tuesday 24 November 2026: within 30 minutes of the booked time, on the appointment's day (Australia/Brisbane).",
    );
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:29:00+10:00' } })).body.message).toBe(late.body.message);
    const dayBefore = await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-23T23:30:00+10:00' } });
    expect(dayBefore.status).toBe(422);
    expect(dayBefore.body.message).toBe(late.body.message);
    // the same instant as 23:30 on the 23rd in Brisbane, written in UTC, is refused the same way
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-23T13:30:00Z' } })).status).toBe(422);

    // A type of its own tolerance: two hours either side, past the appointment's end.
    const [appointment] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, id));
    const typeUrl = `/api/appointment_types/${appointment.appointment_type_id}`;
    expect((await t.request('PUT', typeUrl, { token: acme.tokens.admin, body: { tolerance_minutes: 120 } })).status).toBe(200);
    const read = await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff });
    expect(read.body.appointment.tolerance_minutes).toBe(120);
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T12:55:00+10:00' } })).status).toBe(200);
    expect((await t.request('PUT', typeUrl, { token: acme.tokens.admin, body: { tolerance_minutes: null } })).status).toBe(200);
    expect((await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T11:00:00+10:00' } })).status).toBe(200);
    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { client_gap_minutes: 60 } })).status).toBe(200);
  });

  it("refuses an arrival that would break another hard rule, naming it (409 RULES_BROKEN)", async () => {
    // The client's visits at 09:00 and 11:00 (45 minutes each): 10:00 leaves 15 minutes between them, not the hour.
    const response = await t.request('PUT', url(acme.appointmentIds[2]), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:30:00+10:00' } });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({ code: 'RULES_BROKEN' });
    expect(response.body.message).toMatch(/^This change would break the rules of home care: Cora acme-Client's visits at \d\d:\d\d and 10:30 are less than 1 h apart \(end to start\)\.$/);
  });

  it('refuses garbage and timestamps without an offset with 422', async () => {
    for (const arrive_at of ['garbage', '09:00', '2026-11-24T09:00:00', '2026-11-24', 42, null]) {
      const response = await t.request('PUT', url(acme.appointmentIds[2]), { token: acme.tokens.admin, body: { arrive_at } });
      expect(response.status, String(arrive_at)).toBe(422);
      expect(response.body.message).toMatch(/arrive_at/);
    }
    expect((await t.request('PUT', url(acme.appointmentIds[2]), { token: acme.tokens.admin, body: {} })).body.message).toContain('arrive_at is required');
  });

  it('answers 409 when the appointment belongs to a route, or is cancelled', async () => {
    const id = acme.appointmentIds[1];
    const [route] = await t.ctx.db.insert(routes).values({
      business_account_id: acme.businessAccountId, practitioner_id: acme.practitionerIds[1], day: '2026-11-24', stops: [],
      metrics: { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 },
    }).returning({ id: routes.id });
    await t.ctx.db.update(appointments).set({ route_id: route.id }).where(eq(appointments.id, id));
    const routed = await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:00:00+10:00' } });
    expect(routed.status).toBe(409);
    expect(routed.body.message).toMatch(/part of a route/);
    await t.ctx.db.update(appointments).set({ route_id: null, cancelled_at: new Date() }).where(eq(appointments.id, id));
    const cancelled = await t.request('PUT', url(id), { token: acme.tokens.admin, body: { arrive_at: '2026-11-24T10:00:00+10:00' } });
    expect(cancelled.status).toBe(409);
    await t.ctx.db.update(appointments).set({ cancelled_at: null }).where(eq(appointments.id, id));
  });

  it("answers 404 to a PRACTITIONER for another practitioner's appointment and across businesses, changing nothing", async () => {
    const body = { arrive_at: '2026-11-24T10:05:00+10:00' };
    expect((await t.request('PUT', url(acme.appointmentIds[1]), { token: acme.tokens.practitioner, body })).status).toBe(404);
    expect((await t.request('PUT', url(other.appointmentIds[0]), { token: acme.tokens.admin, body })).status).toBe(404);
    const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, acme.appointmentIds[1]));
    expect(row.arrive_at?.toISOString()).toBe('2026-11-24T00:00:00.000Z');
  });
});

describe('GET /api/appointments/{id}/extra_details', () => {
  it('returns the resource map and the import and export history, oldest first', async () => {
    const id = acme.appointmentIds[3];
    const empty = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.admin });
    expect(empty.body).toEqual({ resource_map: null, versions: [], import_history: [], export_history: [] });
    await t.ctx.db.insert(resourceMaps).values({
      business_account_id: acme.businessAccountId, resource_type: 'Appointment', resource_id: id, external_id: 'ext-991',
      external_object_synced_at: new Date('2026-11-20T01:02:03Z'),
    });
    await t.ctx.db.insert(importHistoryEntries).values([
      { business_account_id: acme.businessAccountId, appointment_id: id, author_full_name: 'Ada acme', created_at: new Date('2026-11-19T00:00:00Z') },
      { business_account_id: acme.businessAccountId, appointment_id: id, author_full_name: null, created_at: new Date('2026-11-18T00:00:00Z') },
    ]);
    await t.ctx.db.insert(exportHistoryEntries).values({ business_account_id: acme.businessAccountId, appointment_id: id, author_full_name: 'Sid', created_at: new Date('2026-11-21T00:00:00Z') });
    const { body } = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff });
    expect(body).toEqual({
      resource_map: { external_id: 'ext-991', external_object_synced_at: '2026-11-20T01:02:03.000Z' },
      versions: [],
      import_history: [
        { timestamp: '2026-11-18T00:00:00.000Z', author_full_name: null },
        { timestamp: '2026-11-19T00:00:00.000Z', author_full_name: 'Ada acme' },
      ],
      export_history: [{ timestamp: '2026-11-21T00:00:00.000Z', author_full_name: 'Sid' }],
    });
  });

  it('tells each change in words: names instead of ids, a fixed field order, no coordinates', async () => {
    const id = acme.appointmentIds[4] ?? acme.appointmentIds[3];
    await recordVersion(t.ctx.db, {
      businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: id, event: 'create', whodunnit: 'Import #3',
      // stored in no particular order, as an import writes them
      changes: {
        lng: [null, 153.047], notes: [null, 'Key under the mat'], ends_at: [null, '2026-11-23T23:45:00.000Z'],
        business_location_id: [null, acme.businessLocationIds[0]], practitioner_id: [null, acme.practitionerIds[0]], lat: [null, -27.467],
        starts_at: [null, '2026-11-23T23:00:00.000Z'], appointment_type_id: [null, acme.appointmentTypeIds[0]], client_id: [null, acme.clientIds[0]],
      },
    });
    await recordVersion(t.ctx.db, {
      businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: id, event: 'update', whodunnit: 'Import #4',
      // another business's practitioner id is not named
      changes: { practitioner_id: [acme.practitionerIds[0], other.practitionerIds[1]], lat: [-27.467, -27.5] },
    });
    const response = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff });
    expect(response.status).toBe(200);
    const [created, updated] = response.body.versions.slice(-2);
    expect(created.changes).toEqual([
      { field: 'client_id', label: 'Client', kind: 'text', from: null, to: 'Cora acme-Client' },
      { field: 'practitioner_id', label: 'Practitioner', kind: 'text', from: null, to: 'Pat acme-One' },
      { field: 'appointment_type_id', label: 'Appointment type', kind: 'text', from: null, to: 'Nursing visit' },
      { field: 'business_location_id', label: 'Business location', kind: 'text', from: null, to: 'acme office' },
      { field: 'starts_at', label: 'Starts', kind: 'instant', from: null, to: '2026-11-23T23:00:00.000Z' },
      { field: 'ends_at', label: 'Ends', kind: 'instant', from: null, to: '2026-11-23T23:45:00.000Z' },
      { field: 'notes', label: 'Notes', kind: 'text', from: null, to: 'Key under the mat' },
      { field: 'position', label: 'Map position', kind: 'position', from: null, to: null },
    ]);
    expect(updated.changes).toEqual([
      { field: 'practitioner_id', label: 'Practitioner', kind: 'text', from: 'Pat acme-One', to: 'a removed practitioner' },
      { field: 'position', label: 'Map position', kind: 'position', from: null, to: null },
    ]);
    expect(JSON.stringify(response.body.versions.map((version: { changes: unknown }) => version.changes))).not.toMatch(/-27\.|153\.|"\d+"/);
    // the stored record stays as it was for API clients
    expect(created.object_changes.practitioner_id).toEqual([null, acme.practitionerIds[0]]);
  });
});
