// Activity (issue 13): the audit trail on a hand-made history — settings changes now recorded (sync settings, tags,
// appointment types), an arrival time, an availability, a login-as link, and the fixture's import, export and
// optimisation — each with who, when, what and its changes in words; counts per kind; filters by kind, author, range
// (days in the business time zone) and practitioner; ADMIN only; never another business's activity; 422s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { routes, versions } from '../../server/src/db/schema';
import { recordVersions } from '../../server/src/modules/audit';
import { AuthService } from '../../server/src/modules/auth';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

const report = (query = '', token = acme.tokens.admin) => t.request('GET', `/api/reports/activity${query}`, { token });
const ok = async (response: Promise<{ status: number; body: any }>, status = 200) => {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
};
const changeText = (change: any) => (change.kind === 'sentence' ? change.label : `${change.label}: ${change.from ?? '—'} → ${change.to ?? '—'}`);
const rowsOf = (body: any) => body.rows.map((row: any) => ({ kind: row.kind, who: row.who, what: row.what, changes: row.changes.map(changeText) }));

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  const admin = acme.tokens.admin;
  // Settings.
  await ok(t.request('PUT', '/api/sync_settings', { token: admin, body: {
    enable_auto_import: true, enable_auto_export: false, ahead_days: 14,
    filters: { practitioner_ids: [acme.practitionerIds[0]], appointment_type_ids: [], business_location_ids: [] },
  } }));
  const created = await ok(t.request('POST', '/api/tags', { token: admin, body: { name: 'Dog on site', color: '#00ff00' } }), 201);
  await ok(t.request('PUT', `/api/tags/${acme.tagIds[0]}`, { token: admin, body: { name: 'High care' } }));
  await ok(t.request('DELETE', `/api/tags/${created.tag.id}`, { token: admin }), 204);
  await ok(t.request('PUT', `/api/appointment_types/${acme.appointmentTypeIds[1]}`, { token: admin, body: { name: 'Physio', duration: 50 } }));
  // A visit's arrival (Cora's 09:00 visit with Pat on Tuesday 24 Nov) and Cora's availability.
  await ok(t.request('PUT', `/api/appointments/${acme.appointmentIds[0]}/update_arrival_time`, { token: admin, body: { arrive_at: '2026-11-23T23:10:00.000Z' } }));
  await ok(t.request('PUT', `/api/clients/${acme.clientIds[0]}/update_availability`, { token: admin, body: { availability: [{ dow: 2, hours: ['06:00-09:00', '09:00-12:00'] }] } }));
  // A login-as link used for the staff user.
  const users = await t.ctx.db.execute(sql`SELECT id FROM users WHERE email = ${acme.emails.staff}`) as unknown as { rows: { id: number }[] };
  const link = await new AuthService(t.ctx).createLoginAsLink(users.rows[0].id);
  await ok(t.request('POST', '/api/auth/login_as', { body: { token: new URL(link).searchParams.get('token') } }));
  // Another business's changes: never in acme's report.
  await ok(t.request('PUT', `/api/tags/${other.tagIds[0]}`, { token: other.tokens.admin, body: { name: 'Other tag' } }));
  // The history's times, fixed (ids in the order written): each change one minute after the previous, from
  // 2030-03-03T13:00Z (23:00 on Sunday 3 March in Brisbane); the jobs and the login on Monday 4 March in Brisbane.
  await t.ctx.db.execute(sql`UPDATE versions SET created_at = timestamptz '2030-03-03T13:00:00Z' + (id - (SELECT min(id) FROM versions WHERE business_account_id = ${acme.businessAccountId})) * interval '1 minute' WHERE business_account_id = ${acme.businessAccountId}`);
  await t.ctx.db.execute(sql`UPDATE jobs SET created_at = timestamptz '2030-03-04T00:00:00Z' + (id % 10) * interval '1 second' WHERE business_account_id = ${acme.businessAccountId}`);
  await t.ctx.db.execute(sql`UPDATE one_time_tokens SET used_at = '2030-03-04T01:00:00Z' WHERE user_id = ${users.rows[0].id}`);
}, 120_000);
afterAll(() => t?.close());

describe('activity report', () => {
  it('lists every import, export, optimisation, change and login-as, newest first, with who, what and the changes in words', async () => {
    const body = await ok(report());
    expect(rowsOf(body)).toEqual([
      { kind: 'login_as', who: 'Rounds support', what: 'Logged in as Sid', changes: [] },
      // The fixture's jobs (same minute: by id, newest first).
      ...body.rows.slice(1, 4).map((row: any) => ({ kind: row.kind, who: 'Ada acme', what: expect.stringMatching(/^(Import|Export|Optimisation) 24 Nov 2026$/), changes: [`Status: — → ${row.kind === 'optimisation' ? 'Cancelled' : 'Complete'}`] })),
      { kind: 'availability', who: 'Ada acme', what: 'Cora acme-Client', changes: ['Availability: Monday 09:00-12:00 → Tuesday 06:00-09:00, 09:00-12:00'] },
      { kind: 'arrival_time', who: 'Ada acme', what: 'Cora acme-Client, 24 Nov 2026', changes: ['Arrival time: 2026-11-23T23:00:00.000Z → 2026-11-23T23:10:00.000Z'] },
      { kind: 'settings', who: 'Ada acme', what: 'Physio', changes: ['Name: Physiotherapy → Physio', 'Duration (minutes): 60 → 50'] },
      // Deleted: said so, not as each field becoming empty.
      { kind: 'tags', who: 'Ada acme', what: 'Dog on site', changes: ['Deleted'] },
      { kind: 'tags', who: 'Ada acme', what: 'High care', changes: ['Name: High needs → High care'] },
      { kind: 'tags', who: 'Ada acme', what: 'Dog on site', changes: ['Name: — → Dog on site', 'Colour: — → #00ff00'] },
      { kind: 'settings', who: 'Ada acme', what: 'Sync settings', changes: ['Automatic import: No → Yes', 'Days ahead: 7 → 14', 'Practitioners: All → Pat acme-One'] },
    ]);
    expect(body.rows.slice(1, 4).map((row: any) => row.kind).sort()).toEqual(['export', 'import', 'optimisation']);
    expect(body.rows[0]).toMatchObject({ id: expect.stringMatching(/^login-\d+$/), at: '2030-03-04T01:00:00.000Z', event: 'used', reason: null });
    expect(body.rows.at(-1)).toMatchObject({ at: '2030-03-03T13:00:00.000Z', event: 'update' });
    expect(body.summary).toEqual({
      total: 11,
      by_kind: [
        { kind: 'import', count: 1 }, { kind: 'export', count: 1 }, { kind: 'optimisation', count: 1 }, { kind: 'arrival_time', count: 1 },
        { kind: 'availability', count: 1 }, { kind: 'tags', count: 3 }, { kind: 'settings', count: 2 }, { kind: 'login_as', count: 1 },
      ],
    });
    expect(body.authors).toEqual(['Ada acme', 'Rounds support']);
  });

  it('pages on the server, newest first or by author, the counts over every row', async () => {
    const every = await ok(report());
    const ids = every.rows.map((row: any) => row.id);
    const first = await ok(report('?per_page=10'));
    expect(first.rows.map((row: any) => row.id)).toEqual(ids.slice(0, 10));
    expect(first.meta).toEqual({ page: 1, per_page: 10, total: 11 });
    const second = await ok(report('?per_page=10&page=2'));
    expect(second.rows.map((row: any) => row.id)).toEqual(ids.slice(10));
    expect(second.summary).toEqual(every.summary);
    const oldest = await ok(report('?per_page=10&direction=asc'));
    expect(oldest.rows.map((row: any) => row.id)).toEqual([...ids].reverse().slice(0, 10));
    // By author, then newest first: Ada's ten, then Rounds support's login.
    const byWho = await ok(report('?sort=who&direction=desc&per_page=10'));
    expect(byWho.rows[0]).toMatchObject({ who: 'Rounds support', kind: 'login_as' });
    expect(byWho.rows.slice(1).map((row: any) => row.id)).toEqual(ids.slice(1, 10));
    const bad = await t.request('GET', '/api/reports/activity?sort=kind', { token: acme.tokens.admin });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain('sort');
  });

  it('filters by kind, author and days in the business time zone', async () => {
    expect(rowsOf(await ok(report('?kinds=settings&kinds=login_as'))).map((row: any) => row.what)).toEqual(['Logged in as Sid', 'Physio', 'Sync settings']);
    const support = await ok(report('?author=Rounds%20support'));
    expect(support.summary).toMatchObject({ total: 1 });
    expect(support.meta).toEqual({ page: 1, per_page: 1, total: 1 });
    expect((await ok(report('?author=Nobody'))).rows).toEqual([]);
    // Sunday 3 March in Brisbane ends at 14:00 UTC: the versions (13:00–13:06 UTC) are on it, the jobs and login on Monday.
    const sunday = await ok(report('?start_date=2030-03-03&end_date=2030-03-03'));
    expect(sunday.summary.total).toBe(7);
    expect(sunday.rows.every((row: any) => row.id.startsWith('version-'))).toBe(true);
    const monday = await ok(report('?start_date=2030-03-04&end_date=2030-03-04'));
    expect(monday.rows.map((row: any) => row.kind).sort()).toEqual(['export', 'import', 'login_as', 'optimisation']);
    expect(monday.authors).toEqual(['Ada acme', 'Rounds support']);
  });

  it('with a visit filter keeps the changes to those visits (and those practitioners\u2019 working data)', async () => {
    expect(rowsOf(await ok(report(`?practitioner_ids=${acme.practitionerIds[0]}`))).map((row: any) => row.kind)).toEqual(['arrival_time']);
    expect((await ok(report(`?practitioner_ids=${acme.practitionerIds[1]}`))).rows).toEqual([]);
    expect((await ok(report(`?practitioner_ids=${other.practitionerIds[0]}`))).rows).toEqual([]);
  });

  it('is for admins only, and each business sees only its own activity', async () => {
    expect((await report('', acme.tokens.staff)).status).toBe(403);
    expect((await report('', acme.tokens.practitioner)).status).toBe(403);
    expect((await t.request('GET', '/api/reports/activity')).status).toBe(401);
    const theirs = await ok(report('', other.tokens.admin));
    expect(rowsOf(theirs).filter((row: any) => !['import', 'export', 'optimisation'].includes(row.kind))).toEqual([
      { kind: 'tags', who: 'Ada other', what: 'Other tag', changes: ['Name: High needs → Other tag'] },
    ]);
    expect(JSON.stringify(theirs)).not.toMatch(/acme/);
  });

  it('counts a visit or client added (by an import) as a visit or client change, not as an arrival time or availability change', async () => {
    await recordVersions(t.ctx.db, [
      { businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: acme.appointmentIds[1], event: 'create', whodunnit: 'Import #7',
        changes: { starts_at: [null, '2031-01-06T23:00:00.000Z'], arrive_at: [null, '2031-01-06T23:00:00.000Z'] } },
      { businessAccountId: acme.businessAccountId, itemType: 'Client', itemId: acme.clientIds[1], event: 'create', whodunnit: 'Import #7',
        changes: { first_name: [null, 'Dale'], availability: [null, [{ dow: 1 }]], tag_ids: [null, [acme.tagIds[0]]] } },
    ]);
    await t.ctx.db.execute(sql`UPDATE versions SET created_at = '2031-01-06T00:00:00Z' WHERE whodunnit = 'Import #7'`);
    const added = await ok(report('?start_date=2031-01-06&end_date=2031-01-06'));
    expect(rowsOf(added).map((row: any) => [row.kind, row.what])).toEqual([['client', 'Dale acme-Client'], ['visit', 'Dale acme-Client, 24 Nov 2026']]);
    // An import nobody started is no one in the Who filter.
    expect(added.authors).toEqual([]);
    expect((await ok(report('?start_date=2031-01-06&end_date=2031-01-06&author=Import%20%237'))).summary.total).toBe(2);
  });

  it('lists only people in the Who filter: an export’s changes are the person’s who started it', async () => {
    await recordVersions(t.ctx.db, [
      { businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: acme.appointmentIds[2], event: 'update', whodunnit: 'Export #5 by Ada acme',
        changes: { arrive_at: ['2031-02-03T23:00:00.000Z', '2031-02-03T23:30:00.000Z'] } },
      { businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: acme.appointmentIds[3], event: 'update', whodunnit: 'Import #8 (automatic)',
        changes: { arrive_at: ['2031-02-03T23:00:00.000Z', '2031-02-03T23:15:00.000Z'] } },
    ]);
    await t.ctx.db.execute(sql`UPDATE versions SET created_at = '2031-02-03T00:00:00Z' WHERE whodunnit IN ('Export #5 by Ada acme', 'Import #8 (automatic)')`);
    const range = '?start_date=2031-02-03&end_date=2031-02-03';
    expect((await ok(report(range))).authors).toEqual(['Ada acme']);
    expect(rowsOf(await ok(report(`${range}&author=Ada%20acme`))).map((row: any) => row.who)).toEqual(['Export #5 by Ada acme']);
  });

  it('says a visit left a route and whose route it was, and that a custom location was deleted', async () => {
    const [route] = await t.ctx.db.insert(routes).values({
      business_account_id: acme.businessAccountId, practitioner_id: acme.practitionerIds[0], day: '2031-03-03', stops: [],
      metrics: { travel_seconds: 0, travel_metres: 0, idle_seconds: 0, overtime_seconds: 0, late_visits: 0 },
    }).returning();
    const lastId = (await t.ctx.db.select({ id: sql<number>`max(id)` }).from(versions))[0].id;
    await recordVersions(t.ctx.db, [
      { businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: acme.appointmentIds[0], event: 'update', whodunnit: 'Ada acme',
        changes: { route_id: [route.id, null] } },
      // A route since removed: named by the practitioner the visit had before the change.
      { businessAccountId: acme.businessAccountId, itemType: 'Appointment', itemId: acme.appointmentIds[1], event: 'update', whodunnit: 'Ada acme',
        changes: { practitioner_id: [acme.practitionerIds[1], acme.practitionerIds[0]], route_id: [route.id + 1000, null] } },
    ]);
    await ok(t.request('DELETE', `/api/custom_locations/${acme.customLocationIds[0]}`, { token: acme.tokens.admin }), 204);
    await t.ctx.db.execute(sql`UPDATE versions SET created_at = '2031-03-03T00:00:00Z' WHERE business_account_id = ${acme.businessAccountId} AND id > ${lastId}`);
    const rows = rowsOf(await ok(report('?start_date=2031-03-03&end_date=2031-03-03&sort=at&direction=asc')));
    expect(rows.map((row: any) => row.changes)).toEqual([
      ['Removed from the route of Pat acme-One'],
      ['Practitioner: Quinn acme-Two → Pat acme-One', 'Removed from the route of Quinn acme-Two'],
      ['Deleted'],
    ]);
    expect(rows[2]).toMatchObject({ kind: 'settings', what: 'acme depot' });
    // The visit's own change log says it the same way.
    const log = (await ok(t.request('GET', `/api/appointments/${acme.appointmentIds[0]}/extra_details`, { token: acme.tokens.admin }))).versions.at(-1);
    expect(log.changes).toEqual([{ field: 'route_id', label: 'Removed from the route of Pat acme-One', kind: 'sentence', from: null, to: null }]);
  });

  it('refuses a bad range or kind with a message naming the field', async () => {
    for (const [query, message] of [
      ['?start_date=2030-03-01', /end_date is required/],
      ['?start_date=2030-03-05&end_date=2030-03-01', /end_date must be on or after start_date/],
      ['?kinds=everything', /kinds/],
    ] as const) {
      const response = await report(query);
      expect(response.status, query).toBe(422);
      expect(response.body.message, query).toMatch(message);
    }
  });
});
