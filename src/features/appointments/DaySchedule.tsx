// One lane per practitioner along the day; visits are blocks at their times and the gaps between them
// (travel and waiting) are drawn as dashed connectors with their length.
import { useMemo, type ReactNode } from 'react';
import { formatTime } from '../../lib/dates';
import { openAppointmentModal } from '../../app/modalStore';
import type { AppointmentSummary } from './api';
import { appointmentTimeZone, arrivalOf, isAppointmentOutsideAvailability } from './appointmentFacts';
import { layoutSchedule } from './scheduleLayout';

export const LANE_COLORS = ['#0284c7', '#16a34a', '#9333ea', '#ea580c', '#db2777', '#0d9488', '#ca8a04', '#4f46e5'];

const MIN_LABELLED_GAP_SHARE = 0.025;

const hourLabel = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:00`;

export function DaySchedule({ appointments, businessTimeZone, laneNote }: {
  appointments: readonly AppointmentSummary[];
  businessTimeZone?: string | null;
  /** Shown under a practitioner's name (their route and its actions). */
  laneNote?: (practitionerId: number) => ReactNode;
}) {
  const layout = useMemo(() => layoutSchedule(appointments, businessTimeZone), [appointments, businessTimeZone]);
  const span = layout.endMinute - layout.startMinute;
  const percent = (minute: number) => `${(((minute - layout.startMinute) / span) * 100).toFixed(3)}%`;
  const width = (from: number, to: number) => `${(((to - from) / span) * 100).toFixed(3)}%`;
  const hours: number[] = [];
  for (let minute = layout.startMinute; minute <= layout.endMinute; minute += 60) hours.push(minute);

  if (layout.lanes.length === 0) return <p className="px-4 py-10 text-center text-sm text-slate-500">No appointments on this day.</p>;

  return (
    // `relative`: what is positioned inside stays inside the scroll box instead of widening the page.
    <div className="relative overflow-x-auto" data-testid="day-schedule">
      <div className="min-w-[56rem] px-4 py-3">
        <div className="relative ml-40 h-5 text-[10px] text-slate-500">
          {hours.map((minute) => (
            <span key={minute} className="absolute -translate-x-1/2 tabular-nums" style={{ left: percent(minute) }}>
              {hourLabel(minute)}
            </span>
          ))}
        </div>
        <ul aria-label="Practitioner lanes" className="space-y-2">
          {layout.lanes.map((lane, laneIndex) => {
            const color = lane.blocks[0]?.appointment.practitioner.color ?? LANE_COLORS[laneIndex % LANE_COLORS.length]; // the practitioner's colour (server-derived or chosen)
            return (
              <li key={lane.practitionerId} data-testid="schedule-lane" aria-label={lane.practitionerName} className="flex items-stretch">
                <div className="w-40 shrink-0 pr-3 text-sm font-medium">
                  <span className="block truncate" title={lane.practitionerName}>
                    <span className="mr-2 inline-block size-2.5 rounded-full" style={{ backgroundColor: color }} aria-hidden="true" />
                    {lane.practitionerName}
                  </span>
                  <span className="block text-xs font-normal text-slate-500">{lane.blocks.length} visits</span>
                  {laneNote?.(lane.practitionerId)}
                </div>
                <div className="relative h-14 flex-1 rounded-md bg-slate-50 dark:bg-slate-800/60">
                  {hours.map((minute) => (
                    <span key={minute} aria-hidden="true" className="absolute inset-y-0 border-l border-slate-200 dark:border-slate-700" style={{ left: percent(minute) }} />
                  ))}
                  {lane.gaps.map((gap) => (
                    <span
                      key={`${gap.from}-${gap.to}`}
                      data-testid="schedule-gap"
                      title={`${gap.minutes} min between visits`}
                      className="absolute top-1/2 flex -translate-y-1/2 items-center justify-center border-t-2 border-dashed border-slate-400 dark:border-slate-500"
                      style={{ left: percent(gap.from), width: width(gap.from, gap.to) }}
                    >
                      {/* Short gaps keep only the line: a label would cover the neighbouring visits. */}
                      {gap.minutes / span >= MIN_LABELLED_GAP_SHARE && (
                        <span className="-mt-4 rounded bg-white px-1 text-[10px] text-slate-600 dark:bg-slate-900 dark:text-slate-300">{gap.minutes}m</span>
                      )}
                    </span>
                  ))}
                  {lane.blocks.map((block) => {
                    const { appointment } = block;
                    const zone = appointmentTimeZone(appointment, businessTimeZone);
                    const outside = isAppointmentOutsideAvailability(appointment, businessTimeZone);
                    const time = formatTime(arrivalOf(appointment), zone);
                    const name = appointment.client?.full_name ?? 'Appointment';
                    return (
                      <button
                        key={appointment.id}
                        type="button"
                        data-testid="schedule-block"
                        onClick={() => openAppointmentModal(appointment.id)}
                        aria-label={`${time} ${name}${appointment.appointment_type ? ` (${appointment.appointment_type.name})` : ''}${outside ? ", outside client's availability" : ''}`}
                        title={`${time} ${name}`}
                        className={`absolute inset-y-1 overflow-hidden rounded px-1 text-left text-[11px] leading-tight text-white shadow-sm hover:brightness-110 focus-visible:z-10 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 dark:focus-visible:outline-white ${
                          block.overlapsPrevious ? 'ring-2 ring-rose-500' : ''
                        } ${outside ? 'outline-2 outline-offset-1 outline-amber-500' : ''}`}
                        style={{ left: percent(block.from), width: width(block.from, block.to), backgroundColor: appointment.appointment_type?.color || color }}
                      >
                        <span className="block font-semibold tabular-nums">{outside ? '⚠ ' : ''}{time}</span>
                        <span className="block truncate">{name}</span>
                      </button>
                    );
                  })}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
