import { describe, expect, it } from 'vitest';
import { deskAlert, deskAlertWords, laneLateness, overdueAfterMinutesProblem, plannedStartMs, type DeskVisit } from './overdue';

const visit = (over: Partial<DeskVisit> = {}): DeskVisit => ({
  starts_at: '2026-11-24T09:00:00+10:00', arrive_at: null, visit_state: 'not_started', cancelled: false, ...over,
});

describe('overdue visits', () => {
  it('plans from the arrival time, else the booked start', () => {
    expect(plannedStartMs(visit())).toBe(Date.parse('2026-11-23T23:00:00Z'));
    expect(plannedStartMs(visit({ arrive_at: '2026-11-24T09:20:00+10:00' }))).toBe(Date.parse('2026-11-23T23:20:00Z'));
  });

  it('is overdue more than the setting past its planned start, with no check-in', () => {
    expect(deskAlert(visit(), '2026-11-24T09:15:00+10:00', 15)).toBeNull();
    expect(deskAlert(visit(), '2026-11-24T09:15:30+10:00', 15)).toEqual({ kind: 'not_started', minutes: 15 });
    expect(deskAlert(visit(), '2026-11-24T09:40:00+10:00', 15)).toEqual({ kind: 'not_started', minutes: 40 });
    expect(deskAlert(visit(), new Date('2026-11-24T09:40:00+10:00'), 60)).toBeNull();
    expect(deskAlert(visit({ arrive_at: '2026-11-24T09:30:00+10:00' }), '2026-11-24T09:40:00+10:00', 15)).toBeNull();
  });

  it('raises nothing once done or not attended, or cancelled', () => {
    for (const state of ['done', 'could_not_attend']) {
      expect(deskAlert(visit({ visit_state: state, arrived_at: '2026-11-24T09:00:00+10:00', ends_at: '2026-11-24T09:45:00+10:00' }), '2026-11-24T18:00:00+10:00', 15)).toBeNull();
    }
    expect(deskAlert(visit({ cancelled: true }), '2026-11-24T12:00:00+10:00', 15)).toBeNull();
  });

  it('raises On my way past the travel to the visit plus the setting, counting from when they set off', () => {
    // Set off on time for a 25-minute drive: due at 09:25 (the later of the planned start and set-off + travel).
    const onTheWay = visit({ visit_state: 'on_my_way', on_my_way_at: '2026-11-24T09:00:00+10:00', travel_seconds: 25 * 60 });
    expect(deskAlert(onTheWay, '2026-11-24T09:40:00+10:00', 15)).toBeNull();
    expect(deskAlert(onTheWay, '2026-11-24T09:52:00+10:00', 15)).toEqual({ kind: 'on_the_way', minutes: 52 });
    // Set off early for a short drive: due at the planned start, not before.
    const early = visit({ visit_state: 'on_my_way', on_my_way_at: '2026-11-24T08:30:00+10:00', travel_seconds: 600 });
    expect(deskAlert(early, '2026-11-24T09:10:00+10:00', 15)).toBeNull();
    expect(deskAlert(early, '2026-11-24T09:16:00+10:00', 15)).toEqual({ kind: 'on_the_way', minutes: 46 });
    // Travel unknown: none is allowed.
    expect(deskAlert(visit({ visit_state: 'on_my_way', on_my_way_at: '2026-11-24T09:00:00+10:00' }), '2026-11-24T09:16:00+10:00', 15)).toEqual({ kind: 'on_the_way', minutes: 16 });
  });

  it('raises Arrived past the booked length plus the setting', () => {
    const there = visit({ visit_state: 'arrived', arrived_at: '2026-11-24T09:05:00+10:00', ends_at: '2026-11-24T09:45:00+10:00' });
    expect(deskAlert(there, '2026-11-24T10:05:00+10:00', 15)).toBeNull();
    expect(deskAlert(there, '2026-11-24T11:15:00+10:00', 15)).toEqual({ kind: 'still_there', minutes: 130, bookedMinutes: 45 });
  });

  it('says what is wrong in words', () => {
    const names = { client: 'Mrs Lee', practitioner: 'Isla' };
    expect(deskAlertWords({ kind: 'on_the_way', minutes: 52 }, names)).toBe('Isla has been on the way to Mrs Lee for 52 min');
    expect(deskAlertWords({ kind: 'still_there', minutes: 130, bookedMinutes: 45 }, names)).toBe('Isla arrived at Mrs Lee 2 h 10 min ago, visit booked for 45 min');
    expect(deskAlertWords({ kind: 'not_started', minutes: 60 }, names)).toBe('Mrs Lee: not started, 1 h late (Isla)');
  });

  it('checks the setting', () => {
    expect(overdueAfterMinutesProblem(15)).toBeNull();
    expect(overdueAfterMinutesProblem(1)).toBeNull();
    expect(overdueAfterMinutesProblem(240)).toBeNull();
    for (const wrong of [0, 241, 1.5, '15', null]) expect(overdueAfterMinutesProblem(wrong)).toMatch(/1 to 240/);
  });
});

describe("a practitioner's lateness", () => {
  it('is how late they arrived at their last arrival', () => {
    const first = visit({ arrived_at: '2026-11-24T09:25:00+10:00', visit_state: 'done' });
    const second = visit({ starts_at: '2026-11-24T10:30:00+10:00', arrived_at: '2026-11-24T10:38:00+10:00', visit_state: 'arrived' });
    expect(laneLateness([second, first])).toEqual({ minutes: 8, visit: second });
    expect(laneLateness([first])).toEqual({ minutes: 25, visit: first });
  });

  it('is null before any arrival, or when they arrived on time or early', () => {
    expect(laneLateness([visit()])).toBeNull();
    expect(laneLateness([visit({ arrived_at: '2026-11-24T08:55:00+10:00' })])).toBeNull();
    expect(laneLateness([visit({ arrived_at: '2026-11-24T09:30:00+10:00', cancelled: true })])).toBeNull();
  });
});
