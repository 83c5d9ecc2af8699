import { describe, expect, it } from 'vitest';
import { greetingFor } from './greeting';

const at = (hour: number, minute = 0) => new Date(2026, 0, 15, hour, minute);

describe('greetingFor', () => {
  it('says morning before noon, afternoon before six, evening after', () => {
    expect(greetingFor(at(0))).toBe('Good morning');
    expect(greetingFor(at(11, 59))).toBe('Good morning');
    expect(greetingFor(at(12))).toBe('Good afternoon');
    expect(greetingFor(at(17, 59))).toBe('Good afternoon');
    expect(greetingFor(at(18))).toBe('Good evening');
    expect(greetingFor(at(23, 59))).toBe('Good evening');
  });
});
