// Checks and normalises an availability list before it is stored (the contract has already checked the shape:
// dow 0–6, hours among the four slots, no repeated slot).
import type { AvailabilityEntry } from '../../db/schema';
import { invalid } from '../../http/errors';

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * One entry per day, ordered by dow; slots in time order. A day is all day when its hours are absent; an empty
 * hours list is refused, as the editor refuses a day that is neither all day nor given a slot.
 */
export function normaliseAvailability(entries: readonly AvailabilityEntry[]): AvailabilityEntry[] {
  const seen = new Set<number>();
  const errors: string[] = [];
  for (const [index, entry] of entries.entries()) {
    if (!Number.isInteger(entry.dow) || entry.dow < 0 || entry.dow > 6) errors.push(`availability[${index}].dow must be 0 (Sunday) to 6 (Saturday)`);
    else if (seen.has(entry.dow)) errors.push(`availability[${index}].dow repeats ${DAY_NAMES[entry.dow]}; list each day once`);
    seen.add(entry.dow);
    if (entry.hours && new Set(entry.hours).size !== entry.hours.length) errors.push(`availability[${index}].hours repeats a slot`);
    if (entry.hours && entry.hours.length === 0) {
      errors.push(`availability[${index}] gives ${DAY_NAMES[entry.dow] ?? 'a day'} no time slot; choose at least one, or leave hours out for all day`);
    }
  }
  if (errors.length) throw invalid(`Invalid availability: ${errors[0]}.`, errors);
  return [...entries]
    .sort((a, b) => a.dow - b.dow)
    .map((entry) => (entry.hours ? { dow: entry.dow, hours: [...entry.hours].sort() } : { dow: entry.dow }));
}
