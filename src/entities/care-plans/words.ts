// A care plan in words, the same wherever it is shown: "Personal care · Mon, Wed, Fri · 07:30–09:00 · 45 min · from
// 14 Dec · ongoing · 2 carers".
import { Temporal } from 'temporal-polyfill';

export const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** ISO weekdays (1 = Monday) in order: "Mon, Wed, Fri"; all seven: "Every day". */
export function weekdaysText(weekdays: readonly number[]): string {
  if (weekdays.length === 7) return 'Every day';
  return [...weekdays].sort((a, b) => a - b).map((day) => WEEKDAY_NAMES[day - 1]).join(', ');
}

/** "14 Dec", with the year when it is not this one. */
export function shortDay(date: string, thisYear?: number): string {
  const day = Temporal.PlainDate.from(date);
  const month = day.toLocaleString('en-AU', { month: 'short' });
  return thisYear === undefined || day.year === thisYear ? `${day.day} ${month}` : `${day.day} ${month} ${day.year}`;
}

export interface PlanWords {
  appointment_type: { name: string };
  weekdays: readonly number[];
  window_start: string;
  window_end: string;
  duration_minutes: number;
  carers: number;
  starts_on: string;
  ends_on: string | null;
}

export function carePlanText(plan: PlanWords, thisYear?: number): string {
  return [
    plan.appointment_type.name,
    weekdaysText(plan.weekdays),
    `${plan.window_start}–${plan.window_end}`,
    `${plan.duration_minutes} min`,
    `from ${shortDay(plan.starts_on, thisYear)}`,
    plan.ends_on ? `until ${shortDay(plan.ends_on, thisYear)}` : 'ongoing',
    plan.carers === 2 ? '2 carers' : '1 carer',
  ].join(' · ');
}
