// A practitioner's week of working hours (seven days, Monday first, null = off) in words and as a form's draft.
import type { WorkingHours } from '../../../entities/practitioners/api';

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const SHORT_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** "Mon–Fri", "Mon, Wed", "Mon–Wed, Fri" for weekday indices in order. */
function daysInWords(days: readonly number[]): string {
  const runs: [number, number][] = [];
  for (const day of days) {
    const last = runs.at(-1);
    if (last && last[1] === day - 1) last[1] = day;
    else runs.push([day, day]);
  }
  return runs.map(([from, to]) => (from === to ? SHORT_NAMES[from] : `${SHORT_NAMES[from]}–${SHORT_NAMES[to]}`)).join(', ');
}

/** "Mon–Fri 07:00–17:30; Sat 08:00–12:00": the days that share hours together, in weekday order. */
export function hoursSummary(hours: WorkingHours): string {
  const groups = new Map<string, number[]>();
  hours.forEach((day, index) => {
    if (!day) return;
    const key = `${day.start}–${day.end}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  if (groups.size === 0) return 'Off every day';
  return [...groups].map(([range, days]) => `${daysInWords(days)} ${range}`).join('; ');
}

/** One weekday in a form: whether they work, and the times typed (kept while the day is switched off). */
export interface DayDraft {
  works: boolean;
  start: string;
  end: string;
}

export const DEFAULT_DAY = { start: '09:00', end: '17:00' } as const;

export function draftOfHours(hours: WorkingHours): DayDraft[] {
  return WEEKDAY_NAMES.map((_, index) => {
    const day = hours[index];
    return day ? { works: true, start: day.start, end: day.end } : { works: false, ...DEFAULT_DAY };
  });
}

export function hoursOfDraft(days: readonly DayDraft[]): WorkingHours {
  return days.map((day) => (day.works ? { start: day.start, end: day.end } : null));
}

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** What is wrong with each working day of the draft, by weekday index (the same rule the server keeps). */
export function draftProblems(days: readonly DayDraft[]): Map<number, string> {
  const problems = new Map<number, string>();
  days.forEach((day, index) => {
    if (!day.works) return;
    if (!CLOCK.test(day.start) || !CLOCK.test(day.end)) problems.set(index, `${WEEKDAY_NAMES[index]}: enter a start and an end time.`);
    else if (minutesOf(day.end) <= minutesOf(day.start)) problems.set(index, `${WEEKDAY_NAMES[index]}: the end must be after the start.`);
  });
  return problems;
}

export const isClock = (text: string) => CLOCK.test(text);
export const clockMinutes = minutesOf;
