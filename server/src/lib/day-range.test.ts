import { describe, expect, it } from 'vitest';
import { dateProblem } from './day-range';

describe('one requested day', () => {
  it('takes a real date within the dates bookings can have', () => {
    expect(dateProblem('2026-12-08', 'date')).toBeNull();
  });

  it('names the field for a date that is not one, or out of range (judged as written out: 20990101 is 2099-01-01)', () => {
    expect(dateProblem('2026-02-30', 'starts_on')).toBe('starts_on must be a date written yyyy-MM-dd (got "2026-02-30").');
    expect(dateProblem('tomorrow', 'date')).toBe('date must be a date written yyyy-MM-dd (got "tomorrow").');
    expect(dateProblem('1999-12-31', 'ends_on')).toBe('ends_on must be between 2000-01-01 and 2099-12-31 (got 1999-12-31).');
    expect(dateProblem('+012026-01-05', 'date')).toBe('date must be between 2000-01-01 and 2099-12-31 (got +012026-01-05).');
    expect(dateProblem('20990101', 'date')).toBeNull();
  });
});
