// Lays out one day's appointments as lanes per practitioner: blocks at their times and the gaps between
// consecutive visits (travel and idle time). Pure, so it is tested without rendering.
import { minutesIntoDay } from '../../lib/dates';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { appointmentTimeZone, arrivalOf, isCancelled } from '../../entities/appointments/facts';

export interface ScheduleBlock {
  appointment: AppointmentSummary;
  /** Minutes since local midnight (practitioner zone). */
  from: number;
  to: number;
  overlapsPrevious: boolean;
}

export interface ScheduleGap {
  from: number;
  to: number;
  minutes: number;
  /** The visit after the gap (the one a travel warning is on). */
  nextAppointmentId: number;
}

export interface ScheduleLane {
  practitionerId: number;
  practitionerName: string;
  blocks: ScheduleBlock[];
  gaps: ScheduleGap[];
}

export interface ScheduleLayout {
  lanes: ScheduleLane[];
  /** The axis, whole hours, at least 06:00–18:00. */
  startMinute: number;
  endMinute: number;
}

const DEFAULT_AXIS_START = 6 * 60;
const DEFAULT_AXIS_END = 18 * 60;

export function layoutSchedule(appointments: readonly AppointmentSummary[], businessTimeZone?: string | null): ScheduleLayout {
  const byPractitioner = new Map<number, ScheduleLane>();
  let earliest = DEFAULT_AXIS_START;
  let latest = DEFAULT_AXIS_END;

  for (const appointment of appointments) {
    if (isCancelled(appointment)) continue;
    const zone = appointmentTimeZone(businessTimeZone);
    const from = minutesIntoDay(arrivalOf(appointment), zone);
    const duration = (Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)) / 60_000;
    // A visit running past midnight is clipped to the day.
    const to = Math.min(from + Math.max(duration, 5), 24 * 60);
    earliest = Math.min(earliest, from);
    latest = Math.max(latest, to);
    const lane = byPractitioner.get(appointment.practitioner.id) ?? {
      practitionerId: appointment.practitioner.id,
      practitionerName: appointment.practitioner.full_name,
      blocks: [],
      gaps: [],
    };
    lane.blocks.push({ appointment, from, to, overlapsPrevious: false });
    byPractitioner.set(appointment.practitioner.id, lane);
  }

  const lanes = [...byPractitioner.values()].sort((a, b) => a.practitionerName.localeCompare(b.practitionerName));
  for (const lane of lanes) {
    lane.blocks.sort((a, b) => a.from - b.from || a.appointment.id - b.appointment.id);
    for (let index = 1; index < lane.blocks.length; index += 1) {
      const previous = lane.blocks[index - 1];
      const current = lane.blocks[index];
      if (current.from < previous.to) current.overlapsPrevious = true;
      else if (current.from > previous.to) lane.gaps.push({ from: previous.to, to: current.from, minutes: Math.round(current.from - previous.to), nextAppointmentId: current.appointment.id });
    }
  }
  return { lanes, startMinute: Math.floor(earliest / 60) * 60, endMinute: Math.ceil(latest / 60) * 60 };
}

/** Dragged visits land on whole 5 minutes (the arrival step of routes). */
export const DRAG_SNAP_MINUTES = 5;

/**
 * Where a block dragged by `deltaMinutes` starts: snapped to 5 minutes and kept on the axis whole (its length kept).
 * A drag across lanes only (under half a step sideways) keeps the visit's time, even one off the 5-minute grid.
 */
export function draggedStart(block: Pick<ScheduleBlock, 'from' | 'to'>, deltaMinutes: number, axis: Pick<ScheduleLayout, 'startMinute' | 'endMinute'>): number {
  if (Math.abs(deltaMinutes) < DRAG_SNAP_MINUTES / 2) return block.from;
  const snapped = Math.round((block.from + deltaMinutes) / DRAG_SNAP_MINUTES) * DRAG_SNAP_MINUTES;
  const latest = Math.max(axis.startMinute, Math.floor((axis.endMinute - (block.to - block.from)) / DRAG_SNAP_MINUTES) * DRAG_SNAP_MINUTES);
  return Math.min(Math.max(snapped, axis.startMinute), latest);
}

/** "HH:mm" of minutes since local midnight. */
export const clockOf = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** Where a visit not yet booked would go in a practitioner's lane (from the nearby search), in minutes of the day. */
export interface ScheduleFit { practitionerId: number; from: number; to: number }

/** "09:30-10:15" as minutes since midnight; null for anything else or a span that ends before it starts. */
export function minutesOfSpan(text: string): { from: number; to: number } | null {
  const match = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/.exec(text);
  if (!match) return null;
  const [fromHour, fromMinute, toHour, toMinute] = match.slice(1).map(Number);
  if (fromHour > 23 || toHour > 23 || fromMinute > 59 || toMinute > 59) return null;
  const from = fromHour * 60 + fromMinute;
  const to = toHour * 60 + toMinute;
  return to > from ? { from, to } : null;
}
