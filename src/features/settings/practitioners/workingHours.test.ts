import { describe, expect, it } from 'vitest';
import { draftOfHours, draftProblems, hoursOfDraft, hoursSummary } from './workingHours';

const day = (start: string, end: string) => ({ start, end });

describe('working hours in words', () => {
  it('groups the days that share hours, in weekday order', () => {
    const weekdays = day('07:00', '17:30');
    expect(hoursSummary([weekdays, weekdays, weekdays, weekdays, weekdays, null, null])).toBe('Mon–Fri 07:00–17:30');
    expect(hoursSummary([weekdays, weekdays, weekdays, weekdays, weekdays, day('08:00', '12:00'), null]))
      .toBe('Mon–Fri 07:00–17:30; Sat 08:00–12:00');
    expect(hoursSummary([weekdays, null, weekdays, null, weekdays, null, null])).toBe('Mon, Wed, Fri 07:00–17:30');
    expect(hoursSummary([weekdays, weekdays, weekdays, day('09:00', '15:00'), weekdays, null, weekdays]))
      .toBe('Mon–Wed, Fri, Sun 07:00–17:30; Thu 09:00–15:00');
    expect(hoursSummary([null, null, null, null, null, null, null])).toBe('Off every day');
  });
});

describe('a week of hours in a form', () => {
  it('keeps a day’s times while it is off, and sends null for it', () => {
    const draft = draftOfHours([day('07:00', '15:00'), null, null, null, null, null, null]);
    expect(draft[0]).toEqual({ works: true, start: '07:00', end: '15:00' });
    expect(draft[1]).toEqual({ works: false, start: '09:00', end: '17:00' });
    expect(hoursOfDraft(draft)).toEqual([day('07:00', '15:00'), null, null, null, null, null, null]);
  });

  it('names the days whose end is not after the start, or whose times are missing', () => {
    const draft = draftOfHours([day('09:00', '09:00'), day('10:00', '08:00'), day('08:00', '12:00'), null, null, null, null]);
    draft[3] = { works: true, start: '', end: '12:00' };
    draft[4] = { works: false, start: '18:00', end: '08:00' };
    expect([...draftProblems(draft)]).toEqual([
      [0, 'Monday: the end must be after the start.'],
      [1, 'Tuesday: the end must be after the start.'],
      [3, 'Thursday: enter a start and an end time.'],
    ]);
  });
});
