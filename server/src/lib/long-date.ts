// A day as messages write it for people: "Wednesday 2 December 2026" (Australian English, as every message is).
import { Temporal } from 'temporal-polyfill';

/** The day in words, with its year unless `withYear` is false ("Wednesday 2 December"). */
export function longDate(day: string | Temporal.PlainDate, { withYear = true }: { withYear?: boolean } = {}): string {
  const date = typeof day === 'string' ? Temporal.PlainDate.from(day) : day;
  return date.toLocaleString('en-AU', { weekday: 'long', day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}) });
}
