import { describe, expect, it } from 'vitest';
import type { PractitionerSettings } from '../../../entities/practitioners/api';
import { changesOf, draftOf, draftProblemsOf, formFieldOf } from './practitionerForm';

const base: PractitionerSettings = {
  id: 7, first_name: 'Pat', last_name: 'Nurse', full_name: 'Pat Nurse', active: true, profession: null, time_zone: 'Australia/Brisbane',
  color: '#c13b3b', color_chosen: false, start_place: { kind: 'home', id: null, name: 'Home', address: '1 A St, Ascot QLD 4007', lat: null, lng: null, geo_precision: 'none' },
  end_place: null, home: { address: '1 A St, Ascot QLD 4007', lat: null, lng: null, precision: 'none', source: null },
  working_hours: [null, null, null, null, null, null, null], break: null, skill_appointment_type_ids: null,
  pms_appointment_type_ids: null, qualified_appointment_type_ids: null, max_visits: null, max_travel_minutes: null, routable: false, warnings: [],
};
const found = { lat: -27.43, lng: 153.06, precision: 'suburb' as const, source: 'gazetteer' as const, label: 'Ascot QLD 4007' };

describe('the practitioner form', () => {
  it('changes nothing until something is edited', () => {
    const saved = draftOf(base);
    expect(changesOf(saved, saved)).toEqual({});
  });

  it('asks for Find on a saved home without a position when the day starts there, and then sends its point', () => {
    const saved = draftOf(base);
    expect(draftProblemsOf(saved, saved).get('home')).toBe('This address is not on the map yet: press Find.');
    const placed = { ...saved, located: { ...found, address: '1 A St, Ascot QLD 4007' } };
    expect(draftProblemsOf(placed, saved).has('home')).toBe(false);
    expect(changesOf(placed, saved)).toEqual({ home: { address: '1 A St, Ascot QLD 4007', lat: -27.43, lng: 153.06, precision: 'suburb', source: 'gazetteer' } });
  });

  it('removes the home when its address is cleared, but not while the day starts there', () => {
    const saved = draftOf({ ...base, start_place: null });
    const cleared = { ...saved, homeAddress: '  ' };
    expect(draftProblemsOf(cleared, saved).has('home')).toBe(false);
    expect(changesOf(cleared, saved)).toEqual({ home: null });
    expect(draftProblemsOf({ ...cleared, start: 'home' }, saved).get('home')).toMatch(/^Enter the home address/);
  });

  it('forgets what Find placed once the address is typed again', () => {
    const saved = draftOf(base);
    const typed = { ...saved, homeAddress: '2 B St, Ascot QLD 4007', located: { ...found, address: '1 A St, Ascot QLD 4007' } };
    expect(draftProblemsOf(typed, saved).get('home')).toBe('Press Find to place this address on the map before saving.');
  });

  it('reads the server’s field paths as the form’s fields', () => {
    expect(['start_place.id', 'end_place', 'home', 'working_hours[3]', 'working_hours', 'break.latest', 'skill_appointment_type_ids', 'colour'].map(formFieldOf))
      .toEqual(['start', 'end', 'home', 'day3', 'hours', 'break', 'skills', null]);
  });
});
