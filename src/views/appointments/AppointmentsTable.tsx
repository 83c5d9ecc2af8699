import { formatDay, formatTime, zonedFromInstant } from '../../lib/dates';
import { openAppointmentModal } from '../modals/modalStore';
import type { AppointmentSummary } from './api';
import { appointmentTimeZone, isAppointmentOutsideAvailability, isCancelled, statusLabel } from './appointmentFacts';
import { AvailabilityWarning } from './AvailabilityWarning';

const HEADERS = ['Time', 'Client', 'Practitioner', 'Type', 'Suburb', 'Arrival', 'Status', 'Warning'];

export function AppointmentsTable({ appointments, businessTimeZone, showDate }: {
  appointments: readonly AppointmentSummary[];
  businessTimeZone?: string | null;
  showDate: boolean;
}) {
  return (
    <div className="overflow-x-auto">
      <table aria-label="Appointments" className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <thead className="bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:bg-slate-800/50 dark:text-slate-300">
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className="px-4 py-2 whitespace-nowrap">
                {header === 'Warning' ? <span className="sr-only">Warning</span> : header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {appointments.map((appointment) => {
            const zone = appointmentTimeZone(appointment, businessTimeZone);
            const cancelled = isCancelled(appointment);
            const open = () => openAppointmentModal(appointment.id);
            return (
              <tr
                key={appointment.id}
                data-testid="appointment-row"
                tabIndex={0}
                aria-label={`Open appointment ${appointment.client?.full_name ?? ''} ${formatTime(appointment.starts_at, zone)}`.trim()}
                onClick={open}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    open();
                  }
                }}
                className={`cursor-pointer hover:bg-sky-50 focus:bg-sky-50 focus:outline-none dark:hover:bg-slate-800 dark:focus:bg-slate-800 ${cancelled ? 'text-slate-400 line-through' : ''}`}
              >
                <td className="px-4 py-2 whitespace-nowrap tabular-nums">
                  {showDate && <span className="mr-2 text-slate-500">{formatDay(zonedFromInstant(appointment.starts_at, zone))}</span>}
                  {formatTime(appointment.starts_at, zone)}–{formatTime(appointment.ends_at, zone)}
                </td>
                <td className="px-4 py-2 font-medium whitespace-nowrap">{appointment.client?.full_name ?? '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap">{appointment.practitioner.full_name}</td>
                <td className="px-4 py-2 whitespace-nowrap">{appointment.appointment_type?.name ?? '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap">{appointment.suburb ?? '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap tabular-nums">{appointment.arrive_at ? formatTime(appointment.arrive_at, zone) : '—'}</td>
                <td className="px-4 py-2 whitespace-nowrap">{statusLabel(appointment)}</td>
                <td className="px-4 py-2">{!cancelled && isAppointmentOutsideAvailability(appointment, businessTimeZone) && <AvailabilityWarning />}</td>
              </tr>
            );
          })}
          {appointments.length === 0 && (
            <tr>
              <td colSpan={HEADERS.length} className="px-4 py-10 text-center text-slate-500">No appointments in this period.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
