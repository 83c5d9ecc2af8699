import { describe, expect, it } from 'vitest';
import { formatDistance, formatMinutes } from './dayPlan';

describe('travel in words', () => {
  it('gives minutes, then hours and minutes', () => {
    expect(formatMinutes(29)).toBe('0 min');
    expect(formatMinutes(31)).toBe('1 min');
    expect(formatMinutes(59 * 60)).toBe('59 min');
    expect(formatMinutes(65 * 60)).toBe('1 h 05 min');
  });

  it('gives metres under a kilometre, one decimal under ten, whole kilometres above', () => {
    expect(formatDistance(845)).toBe('850 m');
    expect(formatDistance(4_240)).toBe('4.2 km');
    expect(formatDistance(12_400)).toBe('12 km');
  });
});
