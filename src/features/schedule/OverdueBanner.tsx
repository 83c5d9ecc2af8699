// Today's schedule, live: "2 visits need you: Mrs Lee: not started, 40 min late (Isla); Sam has been on the way to
// Ada Tran for 52 min" — each visit not started, on the way or still there past the business's setting (the shared
// rule and its words, server/src/lib/overdue.ts), the longest first; each client's name opens the visit.
import { openAppointmentModal } from '../../app/modalStore';
import { Icon } from '../../ui/Icon';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { deskAlertWords, type DeskAlert } from '../../entities/appointments/desk';

/** Visits named in the banner; the rest are counted. */
const NAMED = 6;

/** The alert's sentence with the client's name as a button that opens the visit. */
function AlertSentence({ appointment, alert }: { appointment: AppointmentSummary; alert: DeskAlert }) {
  const client = appointment.client?.full_name ?? 'Appointment';
  const [before, after] = deskAlertWords(alert, { client: '\u0000', practitioner: appointment.practitioner.full_name }).split('\u0000');
  return (
    <>
      {before}
      <button type="button" onClick={() => openAppointmentModal(appointment.id)} className="font-semibold underline underline-offset-2 hover:no-underline">
        {client}
      </button>
      {after}
    </>
  );
}

export function OverdueBanner({ appointments, overdue, afterMinutes }: {
  appointments: readonly AppointmentSummary[];
  /** The visits that need the desk, by id, with what is wrong. */
  overdue: ReadonlyMap<number, DeskAlert>;
  afterMinutes: number;
}) {
  const flagged = appointments
    .filter((appointment) => overdue.has(appointment.id))
    .sort((a, b) => overdue.get(b.id)!.minutes - overdue.get(a.id)!.minutes || a.id - b.id);
  if (flagged.length === 0) return null;
  const named = flagged.slice(0, NAMED);
  return (
    <div role="alert" data-testid="overdue-banner" className="mx-4 mt-3 flex items-start gap-2 rounded-md border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-100">
      <Icon name="warning" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0">
        <p className="font-medium">{flagged.length === 1 ? '1 visit needs you' : `${flagged.length} visits need you`}:</p>
        <ul className="list-disc pl-5">
          {named.map((appointment) => (
            <li key={appointment.id} data-testid="overdue-alert" data-kind={overdue.get(appointment.id)!.kind}>
              <AlertSentence appointment={appointment} alert={overdue.get(appointment.id)!} />
            </li>
          ))}
          {flagged.length > named.length && <li>and {flagged.length - named.length} more</li>}
        </ul>
        <p className="text-xs">
          Each past the account’s {afterMinutes} min: no check-in after the planned start, on the way beyond the travel, or still there beyond
          the booked length. Call the practitioner, or the client.
        </p>
      </div>
    </div>
  );
}
