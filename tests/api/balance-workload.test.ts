// Balancing the day between practitioners: with the choice on, a reassign run of a day built to be uneven shares the
// work out, and the proposal's spread of working time (longest − shortest working day) is smaller than with it off.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, clients, practitioners } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt as at, workingEveryDay } from './support/routing';
import { drainJobs } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let pat: number;
let quinn: number;
const DAY = '2029-11-27'; // Tuesday

beforeAll(async () => {
  t = await startTestApp({ optimizerMaxSearchMs: 300 });
  acme = await createBusinessFixture(t, 'acme');
  [pat, quinn] = acme.practitionerIds;
  // Neighbours: both start and end at home on the same street, 08:00–17:00.
  for (const [id, address] of [[pat, '1 Main St'], [quinn, '3 Main St']] as const) {
    await t.ctx.db.update(practitioners).set({ start_place_kind: 'home', home_address: address, home_lat: -27.47, home_lng: 153.0, working_hours: workingEveryDay('08:00', '17:00') })
      .where(eq(practitioners.id, id));
  }
  // Visits may move anywhere in the day at no price, one client per visit.
  const rules = await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { tolerance_minutes: 720, client_gap_minutes: 0, move_price: 0 } });
  expect(rules.status).toBe(200);
  // Pat has six hour-long visits around the corner, hourly from 09:00; Quinn one, at 09:00.
  const book = async (practitionerId: number, index: number, hhmm: string) => {
    const lng = 153.002 + 0.001 * index;
    const [client] = await t.ctx.db.insert(clients).values({
      business_account_id: acme.businessAccountId, first_name: `Client${index}`, last_name: 'Near', lat: -27.471, lng, time_zone: 'Australia/Brisbane',
    }).returning({ id: clients.id });
    await t.ctx.db.insert(appointments).values({
      business_account_id: acme.businessAccountId, client_id: client.id, practitioner_id: practitionerId, appointment_type_id: acme.appointmentTypeIds[0],
      starts_at: at(DAY, hhmm), ends_at: new Date(at(DAY, hhmm).getTime() + 3600_000), arrive_at: at(DAY, hhmm), lat: -27.471, lng,
    });
  };
  for (let index = 0; index < 6; index++) await book(pat, index, `${String(9 + index).padStart(2, '0')}:00`);
  await book(quinn, 6, '09:00');
}, 120_000);
afterAll(() => t.close());

/** A reassign run of the day for both practitioners, finished, then discarded (so the next run may start). */
async function reassignRun() {
  const created = await t.request('POST', '/api/optimizations', {
    token: acme.tokens.admin, body: { date: DAY, practitioner_ids: [pat, quinn], mode: 'reassign' },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx);
  const read = await t.request('GET', `/api/optimizations/${created.body.optimization.id}`, { token: acme.tokens.admin });
  expect(read.body.optimization.status).toBe('COMPLETE');
  expect((await t.request('POST', `/api/optimizations/${created.body.optimization.id}/discard`, { token: acme.tokens.admin })).status).toBe(200);
  return read.body.optimization.proposal;
}

/** Working days (leaving home to arriving back) of the lanes with visits, seconds. */
const workingDays = (proposal: any, side: 'before' | 'after'): number[] => proposal.lanes
  .filter((lane: any) => lane[side].stops.length)
  .map((lane: any) => (Date.parse(lane[side].end_at) - Date.parse(lane[side].depart_at)) / 1000);
const visitsEach = (proposal: any) => proposal.lanes.map((lane: any) => lane.after.stops.length).sort();

describe('balancing the day between practitioners', () => {
  it('off, the day stays uneven; on, the work is shared and the spread of working time falls', async () => {
    const off = await reassignRun();
    expect(visitsEach(off)).toEqual([1, 6]);
    const before = workingDays(off, 'before');
    expect(off.kpis.before.working_spread_seconds).toBe(Math.round(Math.max(...before) - Math.min(...before)));
    expect(off.kpis.before.working_spread_seconds).toBeGreaterThan(4.5 * 3600);
    expect(off.kpis.after.working_spread_seconds).toBeGreaterThan(4.5 * 3600);

    expect((await t.request('PUT', '/api/optimization_settings', { token: acme.tokens.admin, body: { balance_workload: true } })).status).toBe(200);
    const on = await reassignRun();
    expect(visitsEach(on)).toEqual([3, 4]);
    const after = workingDays(on, 'after');
    expect(on.kpis.after.working_spread_seconds).toBe(Math.round(Math.max(...after) - Math.min(...after)));
    expect(on.kpis.after.working_spread_seconds).toBeLessThan(1.5 * 3600);
    expect(on.kpis.before.working_spread_seconds).toBe(off.kpis.before.working_spread_seconds);
    expect(on.kpis.after.unplaced).toBe(0);
  });
});
