import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors';
import { normaliseAvailability } from './availability';

describe('normaliseAvailability', () => {
  it('orders days and slots; a day without hours is all day', () => {
    expect(normaliseAvailability([
      { dow: 6, hours: ['15:00-18:00', '06:00-09:00'] }, { dow: 0 }, { dow: 3 },
    ])).toEqual([{ dow: 0 }, { dow: 3 }, { dow: 6, hours: ['06:00-09:00', '15:00-18:00'] }]);
    expect(normaliseAvailability([])).toEqual([]);
  });

  it('refuses a repeated day or slot and a day out of range with 422 naming the entry', () => {
    const failure = (entries: Parameters<typeof normaliseAvailability>[0]) => {
      try {
        normaliseAvailability(entries);
      } catch (error) {
        return error as HttpError;
      }
      throw new Error('expected a failure');
    };
    const repeated = failure([{ dow: 1 }, { dow: 1 }]);
    expect(repeated.statusCode).toBe(422);
    expect(repeated.message).toBe('Invalid availability: availability[1].dow repeats Monday; list each day once.');
    expect(failure([{ dow: 2, hours: ['06:00-09:00', '06:00-09:00'] }]).errors).toEqual(['availability[0].hours repeats a slot']);
    expect(failure([{ dow: 3, hours: [] }]).message)
      .toBe('Invalid availability: availability[0] gives Wednesday no time slot; choose at least one, or leave hours out for all day.');
    expect(failure([{ dow: 7 }]).message).toMatch(/availability\[0\]\.dow must be 0 \(Sunday\) to 6 \(Saturday\)/);
  });
});
