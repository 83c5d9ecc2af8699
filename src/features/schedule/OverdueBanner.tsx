// Today's schedule, live: "2 visits have not started: …" — each visit with no check-in past the business's setting
// (the shared rule, server/src/lib/overdue.ts), the latest first, naming the client, the practitioner and how late;
// each name opens the visit.
import { openAppointmentModal } from '../../app/modalStore';
import { Icon } from '../../ui/Icon';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { lateWords } from '../../entities/appointments/desk';

/** Visits named in the banner; the rest are counted. */
const NAMED = 6;

export function OverdueBanner({ appointments, overdue, afterMinutes }: {
  appointments: readonly AppointmentSummary[];
  /** Overdue visits by id: whole minutes past their planned start. */
  overdue: ReadonlyMap<number, number>;
  afterMinutes: number;
}) {
  if (overdue.size === 0) return null;
  const late = appointments
    .filter((appointment) => overdue.has(appointment.id))
    .sort((a, b) => overdue.get(b.id)! - overdue.get(a.id)! || a.id - b.id);
  const named = late.slice(0, NAMED);
  return (
    <div role="alert" data-testid="overdue-banner" className="mx-4 mt-3 flex items-start gap-2 rounded-md border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-900 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-100">
      <Icon name="warning" className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0">
        <p className="font-medium">
          {late.length === 1 ? '1 visit has not started' : `${late.length} visits have not started`}:{' '}
          {named.map((appointment, index) => (
            <span key={appointment.id}>
              {index > 0 && ', '}
              <button type="button" onClick={() => openAppointmentModal(appointment.id)} className="font-semibold underline underline-offset-2 hover:no-underline">
                {appointment.client?.full_name ?? 'Appointment'}
              </button>
              {' '}({appointment.practitioner.full_name}, {lateWords(overdue.get(appointment.id)!)} late)
            </span>
          ))}
          {late.length > named.length && `, and ${late.length - named.length} more`}.
        </p>
        <p className="text-xs">No check-in more than {afterMinutes} min after the planned start: call the practitioner, or the client.</p>
      </div>
    </div>
  );
}
