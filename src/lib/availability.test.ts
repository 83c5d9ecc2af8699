import { describe, expect, it } from 'vitest';
import { isOutsideAvailability, localDayAndMinute, parseSlot } from './availability';

const BRISBANE = 'Australia/Brisbane';
const SYDNEY = 'Australia/Sydney';
const PERTH = 'Australia/Perth';

describe('isOutsideAvailability', () => {
  it('never warns when the client has no custom availability', () => {
    for (const availability of [[], null, undefined]) {
      expect(isOutsideAvailability({ arriveAt: '2026-11-24T03:00:00Z', availability, practitionerTimeZone: BRISBANE })).toBe(false);
    }
  });

  it('treats a day missing from the list as unavailable and a day without hours as all day', () => {
    const availability = [{ dow: 2 }]; // Tuesday, all day
    // Tuesday 2026-11-24 00:01 and 23:59 in Brisbane
    expect(isOutsideAvailability({ arriveAt: '2026-11-23T14:01:00Z', availability, practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T13:59:00Z', availability, practitionerTimeZone: BRISBANE })).toBe(false);
    // Wednesday 00:00 in Brisbane
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T14:00:00Z', availability, practitionerTimeZone: BRISBANE })).toBe(true);
    // an empty hours list also means all day
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T03:00:00Z', availability: [{ dow: 2, hours: [] }], practitionerTimeZone: BRISBANE })).toBe(false);
  });

  it('treats slots as half-open: the start is inside, the end is outside', () => {
    const availability = [{ dow: 2, hours: ['09:00-12:00'] }];
    const at = (local: string) => isOutsideAvailability({ arriveAt: `2026-11-24T${local}:00+10:00`, availability, practitionerTimeZone: BRISBANE });
    expect(at('08:59')).toBe(true);
    expect(at('09:00')).toBe(false);
    expect(at('11:59')).toBe(false);
    expect(at('12:00')).toBe(true);
  });

  it('accepts any of several slots on the day', () => {
    const availability = [{ dow: 2, hours: ['06:00-09:00', '15:00-18:00'] }];
    const at = (local: string) => isOutsideAvailability({ arriveAt: `2026-11-24T${local}:00+10:00`, availability, practitionerTimeZone: BRISBANE });
    expect(at('07:30')).toBe(false);
    expect(at('10:00')).toBe(true);
    expect(at('17:55')).toBe(false);
  });

  it('follows the wall clock across the Australia/Sydney daylight-saving start (2026-10-04 02:00 → 03:00)', () => {
    const availability = [{ dow: 0, hours: ['06:00-09:00'] }]; // Sunday mornings
    const check = (arriveAt: string) => isOutsideAvailability({ arriveAt, availability, clientTimeZone: SYDNEY, practitionerTimeZone: BRISBANE });
    // The same UTC time of day: 19:30Z is 05:30 AEST a week before the change, but 06:30 AEDT on the day itself.
    expect(check('2026-09-26T19:30:00Z')).toBe(true);
    expect(check('2026-10-03T19:30:00Z')).toBe(false);
    // 08:59 AEDT is inside, 09:00 AEDT (22:00Z) is outside; a fixed +10 offset would get both wrong.
    expect(check('2026-10-03T21:59:00Z')).toBe(false);
    expect(check('2026-10-03T22:00:00Z')).toBe(true);
  });

  it('handles the daylight-saving end (2027-04-04 03:00 → 02:00) when the wall clock repeats', () => {
    const availability = [{ dow: 0, hours: ['06:00-09:00'] }];
    const check = (arriveAt: string) => isOutsideAvailability({ arriveAt, availability, clientTimeZone: SYDNEY, practitionerTimeZone: SYDNEY });
    // After the change Sydney is +10: 20:00Z Saturday is 06:00 Sunday.
    expect(check('2027-04-03T20:00:00Z')).toBe(false);
    expect(check('2027-04-03T19:59:00Z')).toBe(true);
  });

  it("uses the client's zone when set, else the practitioner's", () => {
    const availability = [{ dow: 2, hours: ['09:00-12:00'] }];
    const arriveAt = '2026-11-24T00:30:00Z'; // 10:30 in Brisbane, 08:30 in Perth
    expect(isOutsideAvailability({ arriveAt, availability, clientTimeZone: PERTH, practitionerTimeZone: BRISBANE })).toBe(true);
    expect(isOutsideAvailability({ arriveAt, availability, clientTimeZone: null, practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt, availability, clientTimeZone: '', practitionerTimeZone: BRISBANE })).toBe(false);
  });

  it('evaluates the day of week in the client zone when zones straddle midnight', () => {
    const availability = [{ dow: 3 }]; // Wednesday only
    const arriveAt = '2026-11-24T12:30:00Z'; // Tuesday 22:30 in Brisbane, Wednesday 01:30 in Auckland
    expect(isOutsideAvailability({ arriveAt, availability, clientTimeZone: 'Pacific/Auckland', practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt, availability, clientTimeZone: BRISBANE, practitionerTimeZone: 'Pacific/Auckland' })).toBe(true);
  });

  it('reads offsets written in the arrival string as the instant they denote', () => {
    const availability = [{ dow: 2, hours: ['09:00-12:00'] }];
    // 09:00 in Brisbane written with a Sydney summer offset
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T10:00:00+11:00', availability, practitionerTimeZone: BRISBANE })).toBe(false);
  });

  it('gives no warning for an unparseable arrival or zone, and ignores malformed slots', () => {
    const availability = [{ dow: 2, hours: ['09:00-12:00'] }];
    expect(isOutsideAvailability({ arriveAt: 'garbage', availability, practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T00:30:00Z', availability, clientTimeZone: 'Mars/Olympus', practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T00:30:00Z', availability: [{ dow: 2, hours: ['nonsense', '09:00-12:00'] }], practitionerTimeZone: BRISBANE })).toBe(false);
    expect(isOutsideAvailability({ arriveAt: '2026-11-24T00:30:00Z', availability: [{ dow: 2, hours: ['nonsense'] }], practitionerTimeZone: BRISBANE })).toBe(true);
  });
});

describe('helpers', () => {
  it('parses slots and rejects malformed or empty ranges', () => {
    expect(parseSlot('06:00-09:00')).toEqual({ from: 360, to: 540 });
    expect(parseSlot('15:00-24:00')).toEqual({ from: 900, to: 1440 });
    expect(parseSlot('09:00-09:00')).toBeNull();
    expect(parseSlot('12:00-09:00')).toBeNull();
    expect(parseSlot('9:00-12:00')).toBeNull();
    expect(parseSlot('24:30-25:00')).toBeNull();
  });

  it('maps Temporal weekday numbers (Monday 1 … Sunday 7) to 0 = Sunday', () => {
    expect(localDayAndMinute('2026-11-22T00:00:00Z', BRISBANE)).toEqual({ dow: 0, minute: 600 }); // Sunday 10:00
    expect(localDayAndMinute('2026-11-23T00:00:00Z', BRISBANE)).toEqual({ dow: 1, minute: 600 });
    expect(localDayAndMinute('2026-11-28T00:00:00Z', BRISBANE)).toEqual({ dow: 6, minute: 600 });
  });
});
