// A change of the change log in words: the appointment's log and the activity report read it the same way.
import { formatDateTime } from '../../lib/dates';
import type { AppointmentExtraDetails } from './api';

type VersionChange = AppointmentExtraDetails['versions'][number]['changes'][number];

/** A change's value as shown: times in the practitioner's zone (dd MMM yyyy HH:mm), '—' for nothing. */
function formatChangeValue(change: VersionChange, value: string | null, timeZone: string): string {
  if (value === null || value === '') return '—';
  if (change.kind === 'instant') {
    try {
      return formatDateTime(value, timeZone);
    } catch {
      return value;
    }
  }
  return value;
}

/** A change as one line of text ("Arrival time: 09:00 → 09:30"; a new record's values as set), as the log shows it. */
export function changeLineText(change: VersionChange, event: string, timeZone: string): string {
  if (change.kind === 'position') return `${change.label} ${event === 'create' ? 'set' : 'changed'}`;
  if (change.kind === 'sentence') return change.label;
  const to = formatChangeValue(change, change.to, timeZone);
  if (event === 'create' && change.from === null) return `${change.label}: ${to}`;
  return `${change.label}: ${formatChangeValue(change, change.from, timeZone)} → ${to}`;
}
