// The optimiser's view of a practitioner's day (resolvePractitionerDay): the shift in the practitioner's own zone,
// daylight saving, places, the end defaulting to the start, the break clipped to the shift, and what stops routing.
import { describe, expect, it } from 'vitest';
import type { WorkingHours } from '../../db/schema';
import { resolvePractitionerDay } from './service';
import type { PlaceSources, WorkingDataRow } from './working-data';

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
    skill_appointment_type_ids: null, max_visits: null, max_travel_minutes: null,
    ...overrides,
  };
}

describe('resolvePractitionerDay', () => {
  it('gives the shift in seconds after local midnight, the home as start and end, and no problems', () => {
    const day = resolvePractitionerDay(practitioner({ max_visits: 6, max_travel_minutes: 90, skill_appointment_type_ids: [2, 4] }), '2026-11-23', places);
    expect(day).toEqual({
      practitionerId: 5, name: 'Pat Nguyen', active: true, timeZone: 'Australia/Brisbane', date: '2026-11-23',
      dayStart: new Date('2026-11-22T14:00:00Z'), shift: { start: 28_800, end: 59_400 },
      startPlace: { kind: 'home', id: null, name: 'Home', lat: -27.467, lng: 153.047, geo_precision: 'street' },
      endPlace: { kind: 'home', id: null, name: 'Home', lat: -27.467, lng: 153.047, geo_precision: 'street' },
      break: null, skills: [2, 4], maxVisits: 6, maxTravelSeconds: 5400, problems: [], routable: true, notes: [],
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
