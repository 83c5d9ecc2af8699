import type { Temporal } from 'temporal-polyfill';
import { formatTime, zonedFromInstant } from '../../lib/dates';
import { openAppointmentModal } from '../../app/modalStore';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { appointmentTimeZone, isAppointmentOutsideAvailability, isCancelled, visitStatusLabel } from '../../entities/appointments/facts';
import { AvailabilityWarning } from './AvailabilityWarning';
import { Icon } from '../../ui/Icon';
import { alertShortWords, type DeskAlert } from '../../entities/appointments/desk';
import { PmsWriteMark, pmsWriteWords } from './PmsWriteMark';

/** The columns and their widths: fixed ones for short values, the names share what is left and wrap. */
const COLUMNS = [
  { header: 'Time', width: 'w-32' },
  { header: 'Client', width: '' },
  { header: 'Practitioner', width: '' },
  { header: 'Type', width: '' },
  { header: 'Suburb', width: 'w-32' },
  { header: 'Arrival', width: 'w-24' },
  { header: 'Status', width: 'w-44' },
  { header: 'Warning', width: 'w-16' },
] as const;

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** "Tue 24 Nov": the range (at most 62 days) names the year already. */
function compactDay(date: Pick<Temporal.ZonedDateTime, 'dayOfWeek' | 'day' | 'month'>): string {
  return `${WEEKDAYS[date.dayOfWeek - 1]} ${date.day} ${MONTHS[date.month - 1]}`;
}

const CELL = 'px-3 py-2';

/** A text cell that keeps to its column: a name too long for it wraps (never cut, so namesakes stay apart). */
function TextCell({ text, className = '' }: { text: string; className?: string }) {
  return (
    <td className={`${CELL} [overflow-wrap:anywhere] ${className}`}>
      {text}
    </td>
  );
}

/** A travel warning in the row: the icon, its text the tooltip and the accessible name. */
function TravelWarningMark({ text }: { text: string }) {
  return (
    <span data-testid="row-travel-warning" title={text} className="inline-flex items-center text-rose-600 dark:text-rose-400">
      <Icon name="warning" className="size-5" />
      <span className="sr-only">{text}</span>
    </span>
  );
}

export function AppointmentsTable({ appointments, businessTimeZone, showDate, warnings, overdue }: {
  appointments: readonly AppointmentSummary[];
  businessTimeZone?: string | null;
  showDate: boolean;
  /** Travel warnings by visit id (when the list shows one day). */
  warnings?: ReadonlyMap<number, string>;
  /** Today's visits that need the desk, by id, with what is wrong. */
  overdue?: ReadonlyMap<number, DeskAlert>;
}) {
  return (
    // `relative` keeps the visually hidden texts (absolutely positioned) inside the scroll box: without it they
    // are placed against the page and widen it.
    <div className="relative overflow-x-auto">
      <table aria-label="Appointments" className="w-full min-w-[52rem] table-fixed divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <colgroup>
          {COLUMNS.map(({ header, width }) => (
            <col key={header} className={header === 'Time' && showDate ? 'w-52' : width} />
          ))}
        </colgroup>
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
          <tr>
            {COLUMNS.map(({ header }) => (
              <th key={header} scope="col" className={`${CELL} truncate`}>
                {header === 'Warning' ? <span className="sr-only">Warning</span> : header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {appointments.map((appointment) => {
            const zone = appointmentTimeZone(businessTimeZone);
            const cancelled = isCancelled(appointment);
            const open = () => openAppointmentModal(appointment.id);
            const starts = zonedFromInstant(appointment.starts_at, zone);
            const unsaved = pmsWriteWords(appointment);
            return (
              <tr
                key={appointment.id}
                data-testid="appointment-row"
                tabIndex={0}
                aria-label={`Open appointment ${appointment.client?.full_name ?? ''} ${formatTime(appointment.starts_at, zone)}${unsaved ? `, ${unsaved}` : ''}`.trim()}
                onClick={open}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    open();
                  }
                }}
                className={`cursor-pointer hover:bg-sky-50 focus-visible:bg-sky-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-sky-600 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 dark:focus-visible:outline-sky-400 ${cancelled ? 'text-slate-400 line-through' : ''}`}
              >
                <td className={`${CELL} whitespace-nowrap tabular-nums`}>
                  {showDate && <span className="mr-2 text-slate-500 dark:text-slate-400">{compactDay(starts)}</span>}
                  {formatTime(appointment.starts_at, zone)}–{formatTime(appointment.ends_at, zone)}
                </td>
                <TextCell text={appointment.client?.full_name ?? '—'} className="font-medium" />
                <TextCell text={appointment.practitioner.full_name} />
                <TextCell text={appointment.appointment_type?.name ?? '—'} />
                <TextCell text={appointment.suburb ?? '—'} />
                <td className={`${CELL} whitespace-nowrap tabular-nums`}>{appointment.arrive_at ? formatTime(appointment.arrive_at, zone) : '—'}</td>
                <td className={CELL} data-testid="appointment-status" data-state={appointment.visit_state}>
                  <span className="block whitespace-nowrap">{visitStatusLabel(appointment, zone)}</span>
                  {!cancelled && appointment.visit_state === 'done' && appointment.visit?.arrived_at && (
                    <span data-testid="appointment-actual" className="block text-xs whitespace-nowrap text-slate-500 tabular-nums dark:text-slate-400">
                      Arrived {formatTime(appointment.visit.arrived_at, zone)}
                    </span>
                  )}
                  <PmsWriteMark appointment={appointment} className="mt-0.5" />
                  {overdue?.has(appointment.id) && (
                    <span data-testid="appointment-overdue" className="block text-xs font-semibold whitespace-nowrap text-rose-700 dark:text-rose-300">
                      {alertShortWords(overdue.get(appointment.id)!)}
                    </span>
                  )}
                </td>
                <td className={CELL}>
                  <span className="inline-flex gap-1">
                    {!cancelled && isAppointmentOutsideAvailability(appointment, businessTimeZone) && <AvailabilityWarning />}
                    {!cancelled && warnings?.has(appointment.id) && <TravelWarningMark text={warnings.get(appointment.id)!} />}
                  </span>
                </td>
              </tr>
            );
          })}
          {appointments.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length} className="px-4 py-10 text-center text-slate-500 dark:text-slate-400">No appointments in this period.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
