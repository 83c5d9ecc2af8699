// The optimiser's view of a practitioner's day (resolvePractitionerDay): the shift in the practitioner's own zone,
// daylight saving, places, the end defaulting to the start, the break clipped to the shift, leave, and what stops
// routing.
import { describe, expect, it } from 'vitest';
import type { WorkingHours } from '../../db/schema';
import { resolvePractitionerDay, shiftOutsideLeave } from './service';
import { effectiveQualifications, type PlaceSources, type WorkingDataRow } from './working-data';

const places: PlaceSources = {
  businessLocations: new Map([[7, { id: 7, name: 'City office', address: '1 Queen St, Brisbane City QLD 4000', lat: -27.47, lng: 153.02, geo_precision: 'address' as const }],
    [8, { id: 8, name: 'No pin yet', address: null, lat: null, lng: null, geo_precision: 'none' as const }]]),
  customLocations: new Map([[3, { id: 3, name: 'Depot', address: '', lat: -27.44, lng: 153.04, geo_precision: 'suburb' as const }]]),
};

const week = (day: WorkingHours | null, weekend: WorkingHours | null = null) => [day, day, day, day, day, weekend, weekend];

function practitioner(overrides: Partial<WorkingDataRow> = {}): WorkingDataRow {
  return {
    id: 5, first_name: 'Pat', last_name: 'Nguyen', active: true, time_zone: 'Australia/Brisbane',
    home_address: '12 Merthyr Road, New Farm QLD 4005', home_lat: -27.467, home_lng: 153.047, home_geo_precision: 'street',
    start_place_kind: 'home', start_business_location_id: null, start_custom_location_id: null,
    end_place_kind: null, end_business_location_id: null, end_custom_location_id: null,
    working_hours: week({ start: '08:00', end: '16:30' }),
    break_earliest: null, break_latest: null, break_minutes: null,
    skill_appointment_type_ids: null, pms_appointment_type_ids: null, max_visits: null, max_travel_minutes: null,
    ...overrides,
  };
}

describe('effectiveQualifications', () => {
  const of = (pms: number[] | null, narrowed: number[] | null) => effectiveQualifications({ pms_appointment_type_ids: pms, skill_appointment_type_ids: narrowed });
  it('is the PMS list narrowed by Rounds\' choice, which cannot add a type the PMS does not list', () => {
    expect(of([5, 2, 4], null)).toEqual([2, 4, 5]);
    expect(of([2, 4, 5], [4, 9])).toEqual([4]);
    expect(of([2, 4], [])).toEqual([]);
  });
  it('is Rounds\' choice alone without a PMS list, and unknown (null, never "every type") without either', () => {
    expect(of(null, [7, 3])).toEqual([3, 7]);
    expect(of(null, null)).toBeNull();
    expect(resolvePractitionerDay(practitioner(), '2026-11-23', places).skills).toBeNull();
    expect(resolvePractitionerDay(practitioner({ pms_appointment_type_ids: [1, 2], skill_appointment_type_ids: [2] }), '2026-11-23', places).skills).toEqual([2]);
  });
});

describe('resolvePractitionerDay', () => {
  it('gives the shift in seconds after local midnight, the home as start and end, and no problems', () => {
    const day = resolvePractitionerDay(practitioner({ max_visits: 6, max_travel_minutes: 90, skill_appointment_type_ids: [2, 4] }), '2026-11-23', places);
    expect(day).toEqual({
      practitionerId: 5, name: 'Pat Nguyen', active: true, timeZone: 'Australia/Brisbane', date: '2026-11-23',
      dayStart: new Date('2026-11-22T14:00:00Z'), shift: { start: 28_800, end: 59_400 }, hours: { start: 28_800, end: 59_400 },
      startPlace: { kind: 'home', id: null, name: 'Home', lat: -27.467, lng: 153.047, geo_precision: 'street' },
      endPlace: { kind: 'home', id: null, name: 'Home', lat: -27.467, lng: 153.047, geo_precision: 'street' },
      break: null, skills: [2, 4], maxVisits: 6, maxTravelSeconds: 5400, problems: [], routable: true, notes: [], onLeave: null,
    });
  });

  it('counts elapsed seconds on a daylight-saving day (Sydney, clocks forward at 02:00 on Sunday 4 October 2026)', () => {
    const day = resolvePractitionerDay(practitioner({ time_zone: 'Australia/Sydney', working_hours: week(null, { start: '08:00', end: '16:30' }) }), '2026-10-04', places);
    expect(day.dayStart).toEqual(new Date('2026-10-03T14:00:00Z'));
    // 08:00 AEDT is seven hours after midnight AEST.
    expect(day.shift).toEqual({ start: 7 * 3600, end: 15.5 * 3600 });
  });

  it('uses each weekday’s own hours, and says when the practitioner does not work that day', () => {
    const row = practitioner({ working_hours: week({ start: '08:00', end: '16:30' }, { start: '09:00', end: '12:00' }) });
    expect(resolvePractitionerDay(row, '2026-11-28', places).shift).toEqual({ start: 9 * 3600, end: 12 * 3600 });
    const off = resolvePractitionerDay(practitioner(), '2026-11-29', places);
    expect(off).toMatchObject({ shift: null, routable: false, problems: ['Does not work on Sundays.'] });
  });

  it('resolves business and custom locations, and an end place of its own', () => {
    const day = resolvePractitionerDay(practitioner({
      start_place_kind: 'business_location', start_business_location_id: 7, end_place_kind: 'custom_location', end_custom_location_id: 3,
    }), '2026-11-24', places);
    // Each place says how precise its point is, for the route and the run sheet.
    expect(day.startPlace).toEqual({ kind: 'business_location', id: 7, name: 'City office', lat: -27.47, lng: 153.02, geo_precision: 'address' });
    expect(day.endPlace).toEqual({ kind: 'custom_location', id: 3, name: 'Depot', lat: -27.44, lng: 153.04, geo_precision: 'suburb' });
    expect(day.routable).toBe(true);
  });

  it('reports places it cannot route from: none, no position, removed', () => {
    const cases: [Partial<WorkingDataRow>, string][] = [
      [{ start_place_kind: null }, 'No start place.'],
      [{ home_lat: null, home_lng: null }, 'The start place (Home) has no map position.'],
      [{ start_place_kind: 'business_location', start_business_location_id: 8 }, 'The start place (No pin yet) has no map position.'],
      [{ start_place_kind: 'business_location', start_business_location_id: null }, 'The start place no longer exists.'],
      [{ end_place_kind: 'custom_location', end_custom_location_id: 99 }, 'The end place no longer exists.'],
    ];
    for (const [overrides, problem] of cases) {
      const day = resolvePractitionerDay(practitioner(overrides), '2026-11-24', places);
      expect(day.problems, JSON.stringify(overrides)).toEqual([problem]);
      expect(day.routable).toBe(false);
    }
  });

  it('clips the break to the shift, and leaves it out (with a note) when it does not fit', () => {
    const row = practitioner({
      working_hours: week({ start: '08:00', end: '16:30' }, { start: '09:00', end: '12:00' }),
      break_earliest: '11:30:00', break_latest: '13:00:00', break_minutes: 30,
    });
    expect(resolvePractitionerDay(row, '2026-11-24', places).break).toEqual({ earliestStart: 41_400, latestStart: 46_800, duration: 1800 });
    expect(resolvePractitionerDay(row, '2026-11-28', places).break).toEqual({ earliestStart: 41_400, latestStart: 41_400, duration: 1800 });
    const late = resolvePractitionerDay({ ...row, break_earliest: '11:45:00' }, '2026-11-28', places);
    expect(late.break).toBeNull();
    expect(late.notes).toEqual(['The break cannot be taken inside the working hours on Saturday; it is left out.']);
    expect(late.routable).toBe(true);
  });

  it('refuses a date that is not yyyy-MM-dd', () => {
    expect(() => resolvePractitionerDay(practitioner(), '2026-02-30', places)).toThrow(RangeError);
  });
});

describe('leave in the day', () => {
  // Monday 23 November 2026, 08:00–16:30 in Brisbane (UTC+10); a break of 30 min starting 12:00–13:00.
  const brisbane = (hhmm: string, date = '2026-11-23') => new Date(`${date}T${hhmm}:00+10:00`);
  const withBreak = practitioner({ break_earliest: '12:00:00', break_latest: '13:00:00', break_minutes: 30 });

  it('makes a practitioner on leave for all their hours not routable, saying so with the reason', () => {
    const day = resolvePractitionerDay(practitioner(), '2026-11-23', places, [{ startsAt: brisbane('00:00'), endsAt: brisbane('00:00', '2026-11-24'), reason: 'Annual leave' }]);
    expect(day).toMatchObject({ routable: false, onLeave: { reason: 'Annual leave' }, problems: ['On leave on Monday 23 November 2026 (Annual leave).'] });
    // Leave covering just the hours (not the whole day) is leave all day too.
    expect(resolvePractitionerDay(practitioner(), '2026-11-23', places, [{ startsAt: brisbane('07:00'), endsAt: brisbane('17:00'), reason: null }]))
      .toMatchObject({ routable: false, onLeave: { reason: null }, problems: ['On leave on Monday 23 November 2026.'] });
  });

  it('cuts part-day leave out of the hours, keeping the longer side, and moves the break into what is left', () => {
    const afternoon = resolvePractitionerDay(withBreak, '2026-11-23', places, [{ startsAt: brisbane('12:30'), endsAt: brisbane('17:00'), reason: null }]);
    expect(afternoon).toMatchObject({ routable: true, onLeave: null, shift: { start: 8 * 3600, end: 12.5 * 3600 } });
    expect(afternoon.notes).toEqual(['On leave 12:30–16:30: the working hours are cut to 08:00–12:30.']);
    // The break may start 12:00 at the latest, to end by 12:30.
    expect(afternoon.break).toEqual({ earliestStart: 12 * 3600, latestStart: 12 * 3600, duration: 1800 });
    // Back at 13:00: the break can still start at 13:00, its latest; back at 13:30, it is left out.
    const untilOne = resolvePractitionerDay(withBreak, '2026-11-23', places, [{ startsAt: brisbane('07:00'), endsAt: brisbane('13:00'), reason: null }]);
    expect(untilOne.break).toEqual({ earliestStart: 13 * 3600, latestStart: 13 * 3600, duration: 1800 });
    const morning = resolvePractitionerDay(withBreak, '2026-11-23', places, [{ startsAt: brisbane('07:00'), endsAt: brisbane('13:30'), reason: null }]);
    expect(morning.shift).toEqual({ start: 13.5 * 3600, end: 16.5 * 3600 });
    expect(morning.break).toBeNull();
    expect(morning.notes).toContain('The break does not fit in the hours left by the leave; it is left out.');
  });

  it('ignores leave on other days and outside the hours', () => {
    const day = resolvePractitionerDay(practitioner(), '2026-11-23', places, [
      { startsAt: brisbane('17:00'), endsAt: brisbane('23:00'), reason: null }, { startsAt: brisbane('09:00', '2026-11-24'), endsAt: brisbane('10:00', '2026-11-24'), reason: null },
    ]);
    expect(day).toMatchObject({ routable: true, shift: { start: 8 * 3600, end: 16.5 * 3600 }, notes: [], onLeave: null });
  });

  it('keeps the longest stretch outside several leaves, the earlier of two as long', () => {
    expect(shiftOutsideLeave({ start: 0, end: 100 }, [{ start: 20, end: 30 }, { start: 60, end: 70 }])).toEqual({ start: 30, end: 60 });
    expect(shiftOutsideLeave({ start: 0, end: 100 }, [{ start: 40, end: 60 }])).toEqual({ start: 0, end: 40 });
    expect(shiftOutsideLeave({ start: 0, end: 100 }, [{ start: -10, end: 50 }, { start: 50, end: 120 }])).toBeNull();
  });
});

