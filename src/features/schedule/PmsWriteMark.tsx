// A visit's write to the PMS while it is not saved, in a list row or on the phone's day: "Saving to Cliniko…",
// "Not saved" or "Changed in Cliniko". Saved (or never written from Rounds) says nothing.
import type { AppointmentSummary } from '../../entities/appointments/api';
import { PMS_WRITE_MARKS } from '../../entities/appointments/booking';

export const PMS_MARK_CLASSES: Record<keyof typeof PMS_WRITE_MARKS, string> = {
  saving: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
  failed: 'bg-rose-100 text-rose-900 dark:bg-rose-950 dark:text-rose-100',
  conflict: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
};

/** The words of a visit's unsaved write, or null. */
export const pmsWriteWords = (appointment: Pick<AppointmentSummary, 'pms_write_state'>): string | null =>
  appointment.pms_write_state ? PMS_WRITE_MARKS[appointment.pms_write_state] : null;

export function PmsWriteMark({ appointment, className = '' }: { appointment: Pick<AppointmentSummary, 'pms_write_state'>; className?: string }) {
  const state = appointment.pms_write_state;
  if (!state) return null;
  return (
    <span data-testid="pms-write-mark" data-state={state} className={`inline-block rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap ${PMS_MARK_CLASSES[state]} ${className}`}>
      {PMS_WRITE_MARKS[state]}
    </span>
  );
}
