import { describe, expect, it } from 'vitest';
import { isOutsideAvailability } from '../../../../src/lib/availability';
import { availabilityWindows, dayStartMs, type DayVisit, startsOutside } from '../schedule';

// Thursday 26 November 2026; Brisbane is UTC+10 all year, Sydney UTC+11 in summer.
const DATE = '2026-11-26';
const zero = dayStartMs(DATE, 'Australia/Brisbane');
const visit = (availability: DayVisit['availability'], clientTimeZone: string | null = 'Australia/Brisbane'): DayVisit => ({
  id: 1, practitionerId: 1, practitionerName: 'Pat', clientId: 1, clientName: 'Cora', clientTimeZone, availability, appointmentTypeId: null,
  startsAt: new Date(`${DATE}T10:00:00+10:00`), endsAt: new Date(`${DATE}T10:30:00+10:00`), arriveAt: null, agreedStartsAt: new Date(`${DATE}T10:00:00+10:00`), arrivalLocked: false,
  lat: -27.47, lng: 153, updatedAt: new Date(),
});
const hour = (h: number) => h * 3600;

describe('availabilityWindows', () => {
  it('is null without custom availability, empty on a day the client does not list', () => {
    expect(availabilityWindows(visit([]), 'Australia/Brisbane', zero)).toBeNull();
    expect(availabilityWindows(visit([{ dow: 1 }]), 'Australia/Brisbane', zero)).toEqual([]);
  });

  it('reads a listed day without hours as all day', () => {
    expect(availabilityWindows(visit([{ dow: 4 }]), 'Australia/Brisbane', zero)).toEqual([{ start: 0, end: hour(24) - 1 }]);
  });

  it('joins back-to-back slots into one window and ends each a second before the slot does', () => {
    const windows = availabilityWindows(visit([{ dow: 4, hours: ['15:00-18:00', '06:00-09:00', '09:00-12:00'] }]), 'Australia/Brisbane', zero);
    expect(windows).toEqual([{ start: hour(6), end: hour(12) - 1 }, { start: hour(15), end: hour(18) - 1 }]);
    expect(startsOutside(windows, hour(12) - 1)).toBe(false);
    expect(startsOutside(windows, hour(12))).toBe(true);
  });

  it('reads the slots on the client\'s clock, else the practitioner\'s, as the app\'s availability warning does', () => {
    const sydney = availabilityWindows(visit([{ dow: 4, hours: ['09:00-12:00'] }], 'Australia/Sydney'), 'Australia/Brisbane', zero)!;
    expect(sydney).toEqual([{ start: hour(8), end: hour(11) - 1 }]);
    const practitioners = availabilityWindows(visit([{ dow: 4, hours: ['09:00-12:00'] }], null), 'Australia/Sydney', zero)!;
    expect(practitioners).toEqual(sydney);
    for (const seconds of [hour(8) - 60, hour(8), hour(10), hour(11) - 60, hour(11)]) {
      const arriveAt = new Date(zero + seconds * 1000).toISOString();
      const app = isOutsideAvailability({ arriveAt, availability: [{ dow: 4, hours: ['09:00-12:00'] }], clientTimeZone: 'Australia/Sydney', practitionerTimeZone: 'Australia/Brisbane' });
      expect(startsOutside(sydney, seconds), arriveAt).toBe(app);
    }
  });
});
