// "Your day changed": a practitioner's run sheet says what changed in their day since they last looked — visits
// added (a re-plan gave them a colleague's), taken off (given to someone else or cancelled) and moved to another
// time. What they last looked at is the day's visits and times they acknowledged with "Got it", kept on the phone per
// user and day; the first look at a day keeps it silently, so only changes made after it are told.
import { useEffect, useMemo, useState } from 'react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { arrivalOf, isCancelled } from '../../entities/appointments/facts';
import { formatTime } from '../../lib/dates';
import { readStored, writeStored } from '../../lib/storage';
import { Button } from '../../ui/Button';

/** A visit as the practitioner saw it: its client and planned arrival. */
interface SeenVisit { id: number; client: string; arrival: string }

const isSeenDay = (value: unknown): value is SeenVisit[] => Array.isArray(value)
  && value.every((visit) => typeof visit?.id === 'number' && typeof visit.client === 'string' && typeof visit.arrival === 'string');

const keyOf = (userId: number, day: string) => `rounds.dayLastSeen.${userId}.${day}`;

function seenOf(appointments: readonly AppointmentSummary[]): SeenVisit[] {
  return appointments.filter((appointment) => !isCancelled(appointment))
    .map((appointment) => ({ id: appointment.id, client: appointment.client?.full_name ?? 'A visit', arrival: arrivalOf(appointment) }))
    .sort((a, b) => a.arrival.localeCompare(b.arrival) || a.id - b.id);
}

/** What changed from the day last seen to the day now, each in the practitioner's words. */
function changesBetween(before: readonly SeenVisit[], now: readonly SeenVisit[], timeZone: string): string[] {
  const at = (visit: SeenVisit) => formatTime(visit.arrival, timeZone);
  const then = new Map(before.map((visit) => [visit.id, visit]));
  const current = new Set(now.map((visit) => visit.id));
  return [
    ...now.flatMap((visit) => {
      const old = then.get(visit.id);
      if (!old) return [`Added: ${visit.client} at ${at(visit)}`];
      return Date.parse(old.arrival) !== Date.parse(visit.arrival) ? [`Moved: ${visit.client} from ${at(old)} to ${at(visit)}`] : [];
    }),
    ...before.filter((visit) => !current.has(visit.id)).map((visit) => `Taken off your day: ${visit.client} at ${at(visit)}`),
  ];
}

/** Shown to a practitioner only; `appointments` is the day's answer as loaded (never a placeholder of another day). */
export function DayChangedNotice({ appointments, day, timeZone }: { appointments: readonly AppointmentSummary[]; day: string; timeZone: string }) {
  const user = useAuthSelector(selectUser);
  const userId = user?.role === 'PRACTITIONER' ? user.id : null;
  const now = useMemo(() => seenOf(appointments), [appointments]);
  // "Got it" stores the day as it is now and draws again, reading it back.
  const [, setAcknowledged] = useState(0);
  const lastSeen = userId === null ? null : readStored(keyOf(userId, day), isSeenDay);
  useEffect(() => {
    if (userId !== null && lastSeen === null) writeStored(keyOf(userId, day), now);
  }, [userId, day, lastSeen, now]);
  if (userId === null || lastSeen === null) return null;
  const changes = changesBetween(lastSeen, now, timeZone);
  if (changes.length === 0) return null;
  return (
    <section role="status" aria-label="Your day changed" className="mx-4 mt-3 rounded-md border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-100">
      <h3 className="font-semibold">Your day changed</h3>
      <ul className="mt-1 list-disc pl-5">
        {changes.map((change) => <li key={change}>{change}</li>)}
      </ul>
      <Button
        variant="secondary" className="mt-2"
        onClick={() => {
          writeStored(keyOf(userId, day), now);
          setAcknowledged((count) => count + 1);
        }}
      >
        Got it
      </Button>
    </section>
  );
}
