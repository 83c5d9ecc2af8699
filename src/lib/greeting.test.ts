import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

const utc = (hour: number, minute = 0) => new Date(Date.UTC(2026, 0, 15, hour, minute));

describe('greetingFor', () => {
  it('says morning before noon, afternoon before six, evening after', () => {
    expect(greetingFor(utc(0), 'UTC')).toBe('Good morning');
    expect(greetingFor(utc(11, 59), 'UTC')).toBe('Good morning');
    expect(greetingFor(utc(12), 'UTC')).toBe('Good afternoon');
    expect(greetingFor(utc(17, 59), 'UTC')).toBe('Good afternoon');
    expect(greetingFor(utc(18), 'UTC')).toBe('Good evening');
    expect(greetingFor(utc(23, 59), 'UTC')).toBe('Good evening');
  });

  it("greets by the clock of the given time zone, not the browser's", () => {
    // 22:30 UTC on 15 Jan is 08:30 on 16 Jan in Brisbane (UTC+10) and 14:30 in Los Angeles (UTC-8).
    expect(greetingFor(utc(22, 30), 'Australia/Brisbane')).toBe('Good morning');
    expect(greetingFor(utc(22, 30), 'America/Los_Angeles')).toBe('Good afternoon');
    expect(greetingFor(utc(22, 30), 'UTC')).toBe('Good evening');
  });
});
