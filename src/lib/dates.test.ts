import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  normaliseTimeOfDay,
  stepTimeOfDay,
  formatCalendarDate,
  formatDateTime,
  formatDay,
  formatDayRange,
  formatDaySlashed,
  formatTime,
  instantAtTimeOnSameDay,
  minutesIntoDay,
  parseTimeOfDay,
  toRequestDate,
} from './dates';

describe('dates', () => {
  it('formats calendar dates as dd MMM yyyy, dd/MM/yyyy and yyyy-MM-dd', () => {
    const date = Temporal.PlainDate.from('2026-03-05');
    expect(formatDay(date)).toBe('05 Mar 2026');
    expect(formatDaySlashed(date)).toBe('05/03/2026');
    expect(toRequestDate(date)).toBe('2026-03-05');
    expect(formatCalendarDate('1941-12-31')).toBe('31 Dec 1941');
  });

  it('names a range by its first and last day, and a one-day range by its day', () => {
    expect(formatDayRange(Temporal.PlainDate.from('2026-02-27'), Temporal.PlainDate.from('2026-03-05'))).toBe('27 Feb 2026 – 05 Mar 2026');
    expect(formatDayRange('2026-03-05', '2026-03-05')).toBe('05 Mar 2026');
  });

  it('shows instants in the given zone', () => {
    expect(formatDateTime('2026-11-22T23:05:00Z', 'Australia/Brisbane')).toBe('23 Nov 2026 09:05');
    expect(formatTime('2026-11-22T23:05:00Z', 'Australia/Perth')).toBe('07:05');
    expect(minutesIntoDay('2026-11-22T23:05:00Z', 'Australia/Brisbane')).toBe(9 * 60 + 5);
  });

  it('parses HH:mm strictly', () => {
    expect(parseTimeOfDay('07:45')).toEqual({ hour: 7, minute: 45 });
    expect(parseTimeOfDay('7:45')).toBeNull();
    expect(parseTimeOfDay('25:00')).toBeNull();
  });

  it('builds a timestamp on the same local day with that day offset', () => {
    expect(instantAtTimeOnSameDay('2026-11-22T23:00:00Z', '07:30', 'Australia/Brisbane')).toBe('2026-11-23T07:30:00+10:00');
    // Sydney: daylight time (+11:00) in January, standard (+10:00) in July.
    expect(instantAtTimeOnSameDay('2026-01-14T23:00:00Z', '08:00', 'Australia/Sydney')).toBe('2026-01-15T08:00:00+11:00');
    expect(instantAtTimeOnSameDay('2026-07-14T23:00:00Z', '08:00', 'Australia/Sydney')).toBe('2026-07-15T08:00:00+10:00');
    expect(() => instantAtTimeOnSameDay('2026-07-14T23:00:00Z', '8am', 'UTC')).toThrow(/HH:mm/);
  });
});

describe('typed times of day', () => {
  it('reads what people type as 24-hour HH:mm', () => {
    expect(['09:35', '9:35', '9.35', '0935', '935', ' 13:05 '].map(normaliseTimeOfDay)).toEqual(['09:35', '09:35', '09:35', '09:35', '09:35', '13:05']);
    expect(['', '24:00', '9:5', '12:60', '1:30 PM', 'noon'].map(normaliseTimeOfDay)).toEqual([null, null, null, null, null, null]);
  });

  it('steps by 5 minutes onto the 5-minute grid, around midnight', () => {
    expect(stepTimeOfDay('09:35', 5)).toBe('09:40');
    expect(stepTimeOfDay('09:37', 5)).toBe('09:40');
    expect(stepTimeOfDay('09:37', -5)).toBe('09:35');
    expect(stepTimeOfDay('23:55', 5)).toBe('00:00');
    expect(stepTimeOfDay('00:00', -5)).toBe('23:55');
    expect(stepTimeOfDay('x', 5)).toBeNull();
  });
});
