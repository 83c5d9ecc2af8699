import { describe, expect, it } from 'vitest';
import { isOverdue, laneLateness, minutesOverdue, overdueAfterMinutesProblem, plannedStartMs } from './overdue';

const visit = (over: Partial<Parameters<typeof minutesOverdue>[0]> = {}) => ({
  starts_at: '2026-11-24T09:00:00+10:00', arrive_at: null, visit_state: 'not_started', cancelled: false, ...over,
});

describe('overdue visits', () => {
  it('plans from the arrival time, else the booked start', () => {
    expect(plannedStartMs(visit())).toBe(Date.parse('2026-11-23T23:00:00Z'));
    expect(plannedStartMs(visit({ arrive_at: '2026-11-24T09:20:00+10:00' }))).toBe(Date.parse('2026-11-23T23:20:00Z'));
  });

  it('is overdue more than the setting past its planned start, with no check-in', () => {
    expect(minutesOverdue(visit(), '2026-11-24T09:15:00+10:00', 15)).toBeNull();
    expect(minutesOverdue(visit(), '2026-11-24T09:15:30+10:00', 15)).toBe(15);
    expect(minutesOverdue(visit(), '2026-11-24T09:40:00+10:00', 15)).toBe(40);
    expect(isOverdue(visit(), new Date('2026-11-24T09:40:00+10:00'), 60)).toBe(false);
    expect(isOverdue(visit({ arrive_at: '2026-11-24T09:30:00+10:00' }), '2026-11-24T09:40:00+10:00', 15)).toBe(false);
  });

  it('is never overdue once checked in, or cancelled', () => {
    for (const state of ['on_my_way', 'arrived', 'done', 'could_not_attend']) {
      expect(isOverdue(visit({ visit_state: state }), '2026-11-24T12:00:00+10:00', 15)).toBe(false);
    }
    expect(isOverdue(visit({ cancelled: true }), '2026-11-24T12:00:00+10:00', 15)).toBe(false);
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
