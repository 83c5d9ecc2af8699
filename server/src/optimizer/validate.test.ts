import { describe, expect, it } from 'vitest';
import type { Problem } from './types';
import { assertValidProblem, ProblemValidationError, validateProblem } from './validate';

const valid = (): Problem => ({
  visits: [{ id: 'a', location: { lat: -27.5, lng: 153 }, duration: 1800, timeWindows: [{ start: 32400, end: 43200 }] }],
  practitioners: [{ id: 'p1', startLocation: { lat: -27.4, lng: 153.1 }, shift: { start: 28800, end: 61200 } }],
});

const fields = (p: Problem) => validateProblem(p).map((e) => e.field);

describe('validateProblem', () => {
  it('accepts a valid problem', () => {
    expect(validateProblem(valid())).toEqual([]);
  });

  it('names a negative duration', () => {
    const p = valid();
    p.visits[0].duration = -5;
    expect(fields(p)).toEqual(['visits[0].duration']);
  });

  it('names negative lateness and overtime settings', () => {
    const p = valid();
    p.visits[0].allowLate = 'yes' as unknown as boolean;
    p.visits[0].maxLatenessMinutes = -1;
    p.practitioners[0].maxOvertimeMinutes = -30;
    p.weights = { lateness: -1, overtime: Number.NaN };
    expect(fields(p).sort()).toEqual([
      'practitioners[0].maxOvertimeMinutes',
      'visits[0].allowLate',
      'visits[0].maxLatenessMinutes',
      'weights.lateness',
      'weights.overtime',
    ]);
    const ok = valid();
    ok.visits[0].allowLate = true;
    ok.visits[0].maxLatenessMinutes = 30;
    ok.practitioners[0].maxOvertimeMinutes = 45;
    ok.weights = { lateness: 2, overtime: 1 };
    expect(validateProblem(ok)).toEqual([]);
  });

  it('names a negative balance weight', () => {
    const p = valid();
    p.weights = { balance: -1 };
    expect(fields(p)).toEqual(['weights.balance']);
    p.weights = { balance: 10 };
    expect(validateProblem(p)).toEqual([]);
  });

  it('names a window that ends before it starts', () => {
    const p = valid();
    p.visits[0].timeWindows = [{ start: 40000, end: 30000 }];
    expect(fields(p)).toEqual(['visits[0].timeWindows[0].end']);
  });

  it('names NaN and out-of-range coordinates', () => {
    const p = valid();
    p.visits[0].location = { lat: NaN, lng: 200 };
    p.practitioners[0].startLocation = { lat: -91, lng: 0 };
    expect(fields(p).sort()).toEqual(['practitioners[0].startLocation.lat', 'visits[0].location.lat', 'visits[0].location.lng']);
  });

  it('allows any finite coordinate for planar problems', () => {
    const p = valid();
    p.coordinates = 'planar';
    p.visits[0].location = { lat: 500, lng: -900 };
    expect(validateProblem(p)).toEqual([]);
  });

  it('names references to unknown practitioners', () => {
    const p = valid();
    p.visits[0].pinnedPractitionerId = 'ghost';
    p.visits[0].previousPractitionerId = 'ghost2';
    expect(fields(p)).toEqual(['visits[0].pinnedPractitionerId', 'visits[0].previousPractitionerId']);
  });

  it('names duplicate ids, bad shifts and bad breaks', () => {
    const p = valid();
    p.visits.push({ ...p.visits[0] });
    p.practitioners[0].shift = { start: 50000, end: 40000 };
    p.practitioners[0].break = { earliestStart: 3, latestStart: 2, duration: -1 };
    expect(fields(p).sort()).toEqual([
      'practitioners[0].break.duration',
      'practitioners[0].break.latestStart',
      'practitioners[0].shift.end',
      'visits[1].id',
    ]);
  });

  it('throws an error listing the fields', () => {
    const p = valid();
    p.visits[0].duration = Number.NaN;
    expect(() => assertValidProblem(p)).toThrow(ProblemValidationError);
    expect(() => assertValidProblem(p)).toThrow(/visits\[0\]\.duration/);
  });
});
