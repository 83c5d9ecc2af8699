// Under a proposal: the clients whose arrival it moves by at least the business's setting or whose practitioner it
// changes, and whether Apply tells them the new time (an ETA message: SMS, else email; one per client). Shown only when the business sends ETA messages.
import { useId } from 'react';
import type { OptimizationProposal } from '../../../api/optimizations';
import { formatDay, formatTime } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import { Section } from '../../../ui/ModalFrame';
import { Temporal } from 'temporal-polyfill';

type Change = OptimizationProposal['changes'][number];

export function TellClients({ changes, bookedStart, minutes, timeZone, showDay, tell, onTellChange }: {
  /** The changes whose clients would be told (changesToTell). */
  changes: readonly Change[];
  /** A visit's booked start (its arrival before, when it had no arrival time). */
  bookedStart: (appointmentId: number) => string | undefined;
  minutes: number;
  timeZone: string;
  /** The run plans several days: each line names its day. */
  showDay: boolean;
  tell: boolean;
  onTellChange: (tell: boolean) => void;
}) {
  const id = useId();
  if (changes.length === 0) return null;
  return (
    <Section title={`Clients whose arrival moves by ${minutes} min or more, or who get another practitioner (${changes.length})`}>
      <label htmlFor={id} className="flex items-start gap-2 text-sm">
        <input id={id} type="checkbox" data-testid="tell-clients" checked={tell} onChange={(event) => onTellChange(event.target.checked)} className="mt-0.5 size-4 rounded border-slate-300" />
        <span>
          <span className="font-medium">Tell {changes.length === 1 ? 'this client' : `these ${plural(changes.length, 'client')}`} the new arrival time when I apply</span>
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            One message per client, by SMS when set up and the client has a mobile, else by email; not to clients who turned messages off.
          </span>
        </span>
      </label>
      <ul className="mt-2 space-y-0.5 text-sm" data-testid="clients-to-tell">
        {changes.map((change) => (
          <li key={change.appointment_id} className="tabular-nums">
            <span className="font-medium">{change.client_name ?? `Visit #${change.appointment_id}`}</span>
            {showDay && ` (${formatDay(Temporal.Instant.from(change.new_arrive_at).toZonedDateTimeISO(timeZone).toPlainDate())})`}:{' '}
            {formatTime(change.old_arrive_at ?? bookedStart(change.appointment_id)!, timeZone)} → <span className="font-semibold">{formatTime(change.new_arrive_at, timeZone)}</span>
            {change.new_practitioner_id !== change.old_practitioner_id && `, now with ${change.new_practitioner_name}`}
          </li>
        ))}
      </ul>
    </Section>
  );
}
