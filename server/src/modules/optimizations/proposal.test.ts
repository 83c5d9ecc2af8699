// Why a proposal changes a visit (issue 35), on hand-made lanes: continuity, a preferred practitioner, the agreed time,
// the lane's new order when nothing else, and a practitioner the client prefers left with the reason why; and the
// iterations a search of a day runs for its search time.
import { describe, expect, it } from 'vitest';
import type { DayVisit } from '../schedule';
import { iterationBudget } from './job';
import { reasonsOfChange, type ProposalLane } from './proposal';

const DATE = '2026-11-26';
const time = (hhmm: string) => new Date(`${DATE}T${hhmm}:00+10:00`);
const visit = (overrides: Partial<DayVisit> = {}): DayVisit => ({
  id: 1, practitionerId: 1, practitionerName: 'Pat Lee', clientId: 9, clientName: 'Cora Diaz', clientTimeZone: 'Australia/Brisbane', availability: [],
  appointmentTypeId: null, startsAt: time('10:00'), agreedStartsAt: time('10:00'), endsAt: time('10:30'), arriveAt: time('10:00'), arrivalLocked: false,
  lat: -27.47, lng: 153, updatedAt: new Date(), ...overrides,
});
const metrics = (travelMinutes: number, overtimeMinutes = 0) => ({
  travel_seconds: travelMinutes * 60, travel_metres: 0, idle_seconds: 0, overtime_seconds: overtimeMinutes * 60, outside_availability: 0,
});
const day = (travel: number, overtime = 0) => ({ stops: [], depart_at: null, end_at: null, return_leg: null, break: null, metrics: metrics(travel, overtime) });
const lane = (id: number, name: string, [before, after]: [number, number], [overtimeBefore, overtimeAfter] = [0, 0]) => ({
  practitioner_id: id, practitioner_name: name, color: '#000000', start_place: null, end_place: null, shift_start: '', shift_end: '',
  before: day(before, overtimeBefore), after: day(after, overtimeAfter),
}) as unknown as ProposalLane;

const names = new Map([[1, 'Pat Lee'], [2, 'Sam Roe']]);
const facts = (overrides: Partial<Parameters<typeof reasonsOfChange>[0]> = {}): Parameters<typeof reasonsOfChange>[0] => ({
  visit: visit(), newArrival: time('10:00').toISOString(), to: lane(1, 'Pat Lee', [30, 30]), from: lane(1, 'Pat Lee', [30, 30]), names,
  staff: new Map(), checks: { counts: [], before: [], after: [] }, mode: 'reassign', usual: undefined,
  clock: (date) => date.toLocaleTimeString('en-GB', { timeZone: 'Australia/Brisbane', hour: '2-digit', minute: '2-digit' }), ...overrides,
});

describe('the reasons of a change', () => {
  it('says a visit goes back to the practitioner who usually sees the client, and the travel its lanes save', () => {
    const reasons = reasonsOfChange(facts({ to: lane(2, 'Sam Roe', [40, 30]), from: lane(1, 'Pat Lee', [30, 28]), usual: '2' }));
    expect(reasons).toEqual([
      { kind: 'continuity', message: 'Back with Sam Roe, who usually sees Cora Diaz.' },
      { kind: 'travel', message: "Saves 12 min of travel: travel on Pat Lee's and Sam Roe's days 70 min → 58 min." },
    ]);
  });

  it('says a visit goes to a practitioner the client prefers', () => {
    const reasons = reasonsOfChange(facts({ visit: visit({ preferredPractitionerIds: [2] }), to: lane(2, 'Sam Roe', [40, 45]), usual: '2' }));
    expect(reasons[0]).toEqual({ kind: 'preferred-practitioner', message: 'Sam Roe is a practitioner Cora Diaz prefers.' });
  });

  it('says when a visit comes back towards the agreed time, and when it only follows its lane\'s new order', () => {
    const back = reasonsOfChange(facts({ visit: visit({ arriveAt: time('11:00') }), newArrival: time('10:15').toISOString() }));
    expect(back).toEqual([{ kind: 'agreed-time', message: 'Closer to the time agreed with Cora Diaz (10:00): 15 min from it instead of 60.' }]);
    const order = reasonsOfChange(facts({ newArrival: time('10:20').toISOString(), to: lane(1, 'Pat Lee', [30, 31]) }));
    expect(order).toEqual([{ kind: 'lane-order', message: "Part of the new order of Pat Lee's day: travel on Pat Lee's day 30 min → 31 min." }]);
  });

  it('says a visit that gains nothing itself makes room for a change of its lane that fixes a problem with the rules', () => {
    const withStops = lane(1, 'Pat Lee', [57, 57]);
    withStops.after.stops = [{ appointment_id: 1 }, { appointment_id: 7 }] as ProposalLane['after']['stops'];
    const overlap = { rule: 'client-overlap', hard: true, message: 'Peter Cooper has two visits at once: 09:25 and 09:30.', appointment_ids: [7, 8] };
    const reasons = reasonsOfChange(facts({
      newArrival: time('09:30').toISOString(), to: withStops, from: withStops,
      checks: { counts: [], before: [overlap], after: [] } as unknown as Parameters<typeof reasonsOfChange>[0]['checks'],
    }));
    expect(reasons).toEqual([
      { kind: 'rule-fixed', message: "Makes room on Pat Lee's day for a change that fixes: Peter Cooper has two visits at once: 09:25 and 09:30." },
    ]);
  });

  it('says why a visit leaves a practitioner the client prefers', () => {
    const reasons = reasonsOfChange(facts({
      visit: visit({ preferredPractitionerIds: [1] }), to: lane(2, 'Sam Roe', [40, 30], [20, 0]), from: lane(1, 'Pat Lee', [30, 30], [15, 0]),
    }));
    expect(reasons).toEqual([
      { kind: 'travel', message: "Saves 10 min of travel and 35 min of overtime: travel on Pat Lee's and Sam Roe's days 70 min → 60 min, overtime 35 min → 0 min." },
      { kind: 'preferred-not-kept', message: "Not with Pat Lee, whom Cora Diaz prefers: saves 10 min of travel and 35 min of overtime: travel on Pat Lee's and Sam Roe's days 70 min → 60 min, overtime 35 min → 0 min." },
    ]);
  });
});

describe('the iterations of a search', () => {
  it('follows the search time, fewer a second on a bigger day, at least 1,000', () => {
    expect(iterationBudget(1000, 8)).toBe(30_000);
    expect(iterationBudget(2000, 8)).toBe(60_000);
    expect(iterationBudget(1000, 1000)).toBe(6_000);
    expect(iterationBudget(10, 1000)).toBe(1000);
  });
});
