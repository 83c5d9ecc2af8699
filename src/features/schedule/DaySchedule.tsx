// One lane per practitioner along the day; visits are blocks at their times and the gaps between them
// (travel and waiting) are drawn as dashed connectors with their length. A visit whose gap is shorter than the travel
// from the visit before carries its travel warning, and one with a problem by the rule book a mark saying it. Those
// who may move visits drag a block to another time (5-minute steps) and/or another practitioner's lane: an outline
// shows where it will go, and the drop is handed to `onMoveVisit`.
// A visit too short to carry its time and name shows them on hover and focus. A visit booked while its practitioner is
// on leave is striped and marked "On leave" (and its lane counts them): Reassign moves them. Each half of a two-carer
// visit says "with" the other practitioner and carries the two-carer mark. On a phone the day is a list
// per practitioner instead (the lanes would need scrolling sideways to see past the morning).
// Each visit shows where it is (On my way, Arrived, Done, Could not attend) with a mark seen at any width, explained by
// the legend under the lanes (a block's colour is its appointment type's), and its actual times beside the planned
// ones; on today's schedule a visit not started, on the way or still there past the business's setting carries the
// alert mark, and each lane says when its practitioner is running late (the shared rule: server/src/lib/overdue.ts).
import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { formatTime, instantAtTimeOnSameDay } from '../../lib/dates';
import { fixedVisitReason } from '../../lib/fixedVisits';
import { openAppointmentModal } from '../../app/modalStore';
import { Icon } from '../../ui/Icon';
import type { AppointmentSummary } from '../../entities/appointments/api';
import { appointmentTimeZone, arrivalOf, isAppointmentOutsideAvailability, partnerOf, twoCarerText } from '../../entities/appointments/facts';
import { clockOf, layoutSchedule, type ScheduleBlock, type ScheduleFit } from './scheduleLayout';
import { TwoCarerMark } from '../../ui/TwoCarerMark';
import { actualTimesText, MARKED_STATES, VisitStateMark } from '../../ui/VisitSteps';
import { STATE_LABELS } from '../../machines/visitSteps';
import { alertShortWords, lateWords, practitionerLateness, type DeskAlert } from '../../entities/appointments/desk';
import { useScheduleDrag, type DragTarget } from './useScheduleDrag';
import { textColorOn } from '../../lib/contrast';
import { PMS_MARK_CLASSES, PmsWriteMark, pmsWriteWords } from './PmsWriteMark';

/** A click on a lane's free time starts a new visit there, at the quarter hour. */
const NEW_VISIT_STEP_MINUTES = 15;

/** A move by hand, as the server takes it: only what changes. */
export interface ScheduleMove {
  practitioner_id?: number;
  starts_at?: string;
}

/** A dropped visit on its way to the server: its outline stays until the day's list is read again. */
interface PendingMove extends DragTarget {
  listedWith: readonly AppointmentSummary[];
}

export const LANE_COLORS = ['#0284c7', '#16a34a', '#9333ea', '#ea580c', '#db2777', '#0d9488', '#ca8a04', '#4f46e5'];

const MIN_LABELLED_GAP_SHARE = 0.025;

/** Shorter visits are too narrow on the lanes for their time and name (about a pixel a minute at 1,280 px): they show them on hover and focus. */
const SHORT_VISIT_MINUTES = 40;

const PHONE_QUERY = '(max-width: 767px)';
const subscribePhone = (onChange: () => void) => {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isPhone = () => typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;

/** "09:00–09:15 Robin Tran (Home visit)": what a visit block says of itself, whatever its width. */
function visitLabel(block: ScheduleBlock, businessTimeZone?: string | null): { time: string; span: string; name: string; type: string | null } {
  const { appointment } = block;
  const zone = appointmentTimeZone(businessTimeZone);
  const arrival = arrivalOf(appointment);
  const end = new Date(Date.parse(arrival) + Date.parse(appointment.ends_at) - Date.parse(appointment.starts_at)).toISOString();
  const time = formatTime(arrival, zone);
  return { time, span: `${time}–${formatTime(end, zone)}`, name: appointment.client?.full_name ?? 'Appointment', type: appointment.appointment_type?.name ?? null };
}

type Listed = AppointmentSummary;

/** The state's short words on a block with its actual times: "Arrived 09:02", "Done 09:02–09:48"; null while not started. */
function actualLine(appointment: Listed, zone: string): string | null {
  const state = appointment.visit_state;
  if (!state || state === 'not_started' || appointment.status === 'CANCELLED') return null;
  const visit = appointment.visit;
  const at = (iso: string | null | undefined) => (iso ? formatTime(iso, zone) : null);
  if (state === 'done') {
    const [arrived, done] = [at(visit?.arrived_at), at(visit?.done_at)];
    return `Done ${arrived && done ? `${arrived}–${done}` : done ?? ''}`.trim();
  }
  const time = at(state === 'on_my_way' ? visit?.on_my_way_at : state === 'arrived' ? visit?.arrived_at : visit?.could_not_attend_at);
  return `${STATE_LABELS[state]}${time ? ` ${time}` : ''}`;
}

/**
 * What a visit says of its state for screen readers and tooltips: "Done (Arrived 09:02 · Done 09:48)", "Not started,
 * 40 min late", "On my way (On my way 09:00), on the way 52 min"; nothing for a visit not started and not overdue (the
 * usual case says nothing new).
 */
function stateWords(appointment: Listed, zone: string, alert: DeskAlert | undefined): string {
  if (appointment.status === 'CANCELLED') return 'Cancelled';
  const state = appointment.visit_state ?? 'not_started';
  if (alert?.kind === 'not_started') return `Not started, ${lateWords(alert.minutes)} late`;
  if (state === 'not_started') return '';
  const times = actualTimesText(appointment.visit ?? null, zone);
  return `${times ? `${STATE_LABELS[state]} (${times})` : STATE_LABELS[state]}${alert ? `, ${alertShortWords(alert).toLowerCase()}` : ''}`;
}

/** What the alert mark says on a lane: late to start or to arrive, or over the booked length. */
const ALERT_MARK_WORDS: Record<DeskAlert['kind'], string> = { not_started: 'Late', on_the_way: 'Late', still_there: 'Over' };

/** Under the lanes: what the marks and colours say. */
function ScheduleLegend() {
  return (
    <ul aria-label="What the marks say" data-testid="schedule-legend" className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 pb-3 text-xs text-slate-600 dark:text-slate-300">
      {MARKED_STATES.map((state) => (
        <li key={state} className="flex items-center gap-1">
          <VisitStateMark state={state} />
          {STATE_LABELS[state]}
        </li>
      ))}
      <li>No mark: not started</li>
      <li className="flex items-center gap-1">
        <span aria-hidden="true" className={ALERT_MARK_CLASSES}>Late</span>
        needs you (see the banner)
      </li>
      <li>Colour: the appointment type</li>
    </ul>
  );
}

/** "Running 12 min late" under a practitioner's name on today's schedule. */
function LaneLate({ appointments }: { appointments: readonly Listed[] }) {
  const late = practitionerLateness(appointments);
  if (!late) return null;
  return (
    <span data-testid="lane-late" className="block text-xs font-semibold text-rose-700 dark:text-rose-300">
      Running {lateWords(late.minutes)} late
    </span>
  );
}

const ALERT_MARK_CLASSES = 'rounded-full bg-rose-700 px-1 text-[9px] leading-tight font-bold text-white uppercase shadow ring-1 ring-white';

/** The mark of a visit that needs the desk, on a lane (its words are in the block's name). */
/** `className`: a short block hides its marks' words while its popover (which says them) shows. */
function AlertMark({ alert, className = '' }: { alert: DeskAlert; className?: string }) {
  return (
    <span data-testid="block-overdue" data-kind={alert.kind} aria-hidden="true" className={`absolute bottom-0.5 left-1/2 z-10 -translate-x-1/2 ${ALERT_MARK_CLASSES} ${className}`}>
      {ALERT_MARK_WORDS[alert.kind]}
    </span>
  );
}

const hourLabel = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:00`;

/** A problem a visit has by the rule book (hard: the rules forbid it; soft: allowed, worth a look). */
export interface ScheduleProblem {
  message: string;
  hard: boolean;
}

/** A visit's mark for its problems: a hard one outranks soft ones. */
function ProblemMark({ problems, className = '' }: { problems: readonly ScheduleProblem[]; className?: string }) {
  const hard = problems.some((problem) => problem.hard);
  return <Icon name={hard ? 'danger' : 'info'} className={`size-3.5 shrink-0 ${hard ? 'text-rose-700 dark:text-rose-400' : 'text-amber-700 dark:text-amber-400'} ${className}`} />;
}

/** What a visit booked in its practitioner's leave says of itself, and the stripes that mark it on a lane. */
const ON_LEAVE = 'booked while the practitioner is on leave';
const LEAVE_STRIPES = 'repeating-linear-gradient(135deg, rgb(255 255 255 / 0.45) 0 4px, transparent 4px 9px)';

/** "2 visits booked while on leave" under a lane's name, when it has any. */
/** A lane's New visit (the lanes' header and the phone's list of a practitioner's day). */
function LaneNewVisit({ name, onClick, className }: { name: string; onClick: () => void; className: string }) {
  return (
    <button type="button" data-testid="lane-new-visit" aria-label={`New visit for ${name}`} onClick={onClick}
      className={`${className} font-medium text-sky-700 hover:underline dark:text-sky-400`}>
      New visit
    </button>
  );
}

function LeaveCount({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <span data-testid="lane-on-leave" className="block text-xs font-medium text-violet-700 dark:text-violet-300">
      {count} {count === 1 ? 'visit' : 'visits'} booked while on leave
    </span>
  );
}

export function DaySchedule({ appointments, businessTimeZone, laneNote, warnings, problems, onLeave, onMoveVisit, onNewVisit, fit, fixedBeforeMinutes = 30, overdue, live = false }: {
  appointments: readonly AppointmentSummary[];
  /** Given to those who book visits: a click on a lane's free time (or the lane's "New visit") opens the booking there. */
  onNewVisit?: (practitionerId: number, time: string | null) => void;
  /** Today's visits that need the desk, by id, with what is wrong: each carries the alert mark. */
  overdue?: ReadonlyMap<number, DeskAlert>;
  /** The day is today, shown live: each lane says when its practitioner is running late. */
  live?: boolean;
  /** Visits that have started or start within this many minutes cannot be dragged. */
  fixedBeforeMinutes?: number;
  businessTimeZone?: string | null;
  /** Where a new visit fits (the nearby search's best place), drawn in that practitioner's lane. */
  fit?: ScheduleFit | null;
  /** Shown under a practitioner's name (their route and its actions). */
  laneNote?: (practitionerId: number) => ReactNode;
  /** A visit's travel warning, by visit id. */
  warnings?: ReadonlyMap<number, string>;
  /** A visit's problems by the rule book, by visit id: the visit carries a mark, and says them. */
  problems?: ReadonlyMap<number, readonly ScheduleProblem[]>;
  /** The visits booked while their practitioner is on leave. */
  onLeave?: ReadonlySet<number>;
  /** Given to those who may move visits: blocks can then be dragged; settles when the server has answered. */
  onMoveVisit?: (appointmentId: number, move: ScheduleMove) => Promise<unknown>;
}) {
  const layout = useMemo(() => {
    const laidOut = layoutSchedule(appointments, businessTimeZone);
    // The axis takes in the fit, so it is drawn even before the first visit or after the last.
    return fit ? { ...laidOut, startMinute: Math.min(laidOut.startMinute, Math.floor(fit.from / 60) * 60), endMinute: Math.max(laidOut.endMinute, Math.ceil(fit.to / 60) * 60) } : laidOut;
  }, [appointments, businessTimeZone, fit]);
  const [pending, setPending] = useState<PendingMove | null>(null);
  const laneOf = (practitionerId: number) => layout.lanes.find((lane) => lane.practitionerId === practitionerId);
  const drag = useScheduleDrag({
    layout,
    enabled: onMoveVisit !== undefined,
    movable: (block) => fixedVisitReason({ arrival: arrivalOf(block.appointment), visitState: block.appointment.visit_state }, fixedBeforeMinutes) === null,
    onDrop: (block: ScheduleBlock, fromPractitionerId: number, target: DragTarget) => {
      const { appointment } = block;
      const move: ScheduleMove = {};
      if (target.practitionerId !== fromPractitionerId) move.practitioner_id = target.practitionerId;
      if (target.from !== block.from) {
        // The lane's minutes are in its practitioner's zone.
        const zone = appointmentTimeZone(businessTimeZone);
        move.starts_at = instantAtTimeOnSameDay(arrivalOf(appointment), clockOf(target.from), zone);
      }
      if (!onMoveVisit || Object.keys(move).length === 0) return;
      setPending({ ...target, listedWith: appointments });
      onMoveVisit(appointment.id, move).catch(() => setPending(null));
    },
  });
  // The outline at the target: while dragging, then while the move is saved (until the day's list is read again).
  const outline = drag.target ?? (pending && pending.listedWith === appointments ? pending : null);
  const span = layout.endMinute - layout.startMinute;
  const percent = (minute: number) => `${(((minute - layout.startMinute) / span) * 100).toFixed(3)}%`;
  const width = (from: number, to: number) => `${(((to - from) / span) * 100).toFixed(3)}%`;
  const hours: number[] = [];
  for (let minute = layout.startMinute; minute <= layout.endMinute; minute += 60) hours.push(minute);

  const phone = useSyncExternalStore(subscribePhone, isPhone, () => false);

  if (layout.lanes.length === 0) return <p className="px-4 py-10 text-center text-sm text-slate-500 dark:text-slate-400">No appointments on this day.</p>;
  if (phone) return <DayAgenda layout={layout} businessTimeZone={businessTimeZone} laneNote={laneNote} warnings={warnings} problems={problems} onLeave={onLeave} overdue={overdue} live={live} onNewVisit={onNewVisit} />;

  return (
    // `relative`: what is positioned inside stays inside the scroll box instead of widening the page.
    <div ref={drag.rootRef} className="relative overflow-x-auto" data-testid="day-schedule">
      <div className="min-w-[56rem] px-4 py-3">
        <div className="relative ml-40 h-5 text-[10px] text-slate-500 dark:text-slate-400">
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
                  <span className="block [overflow-wrap:anywhere]">
                    <span className="mr-2 inline-block size-2.5 rounded-full" style={{ backgroundColor: color }} aria-hidden="true" />
                    {lane.practitionerName}
                  </span>
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">{lane.blocks.length} {lane.blocks.length === 1 ? 'visit' : 'visits'}</span>
                  <LeaveCount count={lane.blocks.filter((block) => onLeave?.has(block.appointment.id)).length} />
                  {live && <LaneLate appointments={lane.blocks.map((block) => block.appointment)} />}
                  {laneNote?.(lane.practitionerId)}
                  {onNewVisit && <LaneNewVisit name={lane.practitionerName} onClick={() => onNewVisit(lane.practitionerId, null)} className="mt-0.5 block text-xs" />}
                </div>
                <div
                  ref={drag.trackRef(lane.practitionerId)}
                  data-testid="schedule-track"
                  title={onNewVisit ? 'Click a free time to book a new visit here.' : undefined}
                  onClick={
                    onNewVisit
                      ? (event) => {
                          // Only the free time: a visit's own click opens it.
                          if ((event.target as HTMLElement).closest('[data-testid="schedule-block"]')) return;
                          // A drag released over the lane ends with a click on it: that is a move, not a new visit.
                          if (drag.takeSwallowedClick()) return;
                          const box = event.currentTarget.getBoundingClientRect();
                          if (box.width <= 0) return;
                          const minute = layout.startMinute + ((event.clientX - box.left) / box.width) * span;
                          const snapped = Math.min(Math.max(Math.round(minute / NEW_VISIT_STEP_MINUTES) * NEW_VISIT_STEP_MINUTES, 0), 24 * 60 - NEW_VISIT_STEP_MINUTES);
                          onNewVisit(lane.practitionerId, clockOf(snapped));
                        }
                      : undefined
                  }
                  className={`relative h-14 flex-1 rounded-md bg-slate-50 dark:bg-slate-800/60 ${onNewVisit ? 'cursor-copy' : ''}`}
                >
                  {hours.map((minute) => (
                    <span key={minute} aria-hidden="true" className="absolute inset-y-0 border-l border-slate-200 dark:border-slate-700" style={{ left: percent(minute) }} />
                  ))}
                  {lane.gaps.map((gap) => (
                    <span
                      key={`${gap.from}-${gap.to}`}
                      data-testid="schedule-gap"
                      title={`${gap.minutes} min between visits${warnings?.has(gap.nextAppointmentId) ? `: ${warnings.get(gap.nextAppointmentId)}` : ''}`}
                      className={`absolute top-1/2 flex -translate-y-1/2 items-center justify-center border-t-2 border-dashed ${
                        warnings?.has(gap.nextAppointmentId) ? 'border-rose-500' : 'border-slate-400 dark:border-slate-500'
                      }`}
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
                    const outside = isAppointmentOutsideAvailability(appointment, businessTimeZone);
                    const warning = warnings?.get(appointment.id);
                    const visitProblems = problems?.get(appointment.id) ?? [];
                    const problemWords = visitProblems.map((problem) => problem.message).join(' ');
                    const { time, span: times, name, type } = visitLabel(block, businessTimeZone);
                    const short = block.to - block.from < SHORT_VISIT_MINUTES;
                    const moving = outline?.appointmentId === appointment.id;
                    const held = drag.heldId === appointment.id && !moving;
                    const fixed = onMoveVisit ? fixedVisitReason({ arrival: arrivalOf(appointment), visitState: appointment.visit_state }, fixedBeforeMinutes) : null;
                    const dragHint = fixed ?? (onMoveVisit ? 'Drag to move it to another time or practitioner.' : null);
                    const inLeave = onLeave?.has(appointment.id) ?? false;
                    const partner = partnerOf(appointment);
                    const zone = appointmentTimeZone(businessTimeZone);
                    const alert = overdue?.get(appointment.id);
                    const actual = actualLine(appointment, zone);
                    const state = appointment.visit_state ?? 'not_started';
                    const stateText = stateWords(appointment, zone, alert);
                    const cancelled = appointment.status === 'CANCELLED';
                    const background = appointment.appointment_type?.color || color;
                    const unsaved = pmsWriteWords(appointment);
                    // The name starts with the block's visible words in their order (WCAG 2.5.3): "09:00 Ada Done 09:02–09:48
                    // Two-carer visit with Sam Not saved Late On leave", then what the marks and colours say.
                    const visible = `${name}${actual ? ` ${actual}` : ''}${partner ? ` ${twoCarerText(partner)}` : ''}${unsaved ? ` ${unsaved}` : ''}${alert ? ` ${ALERT_MARK_WORDS[alert.kind]}` : ''}${inLeave ? ' On leave' : ''}`;
                    const described = `${visible}${type ? ` (${type})` : ''}${stateText && (!actual || alert) ? `, ${stateText}` : ''}${outside ? ", outside client's availability" : ''}${warning ? `, ${warning}` : ''}${inLeave ? `, ${ON_LEAVE}` : ''}${problemWords ? `, ${problemWords}` : ''}`;
                    // A short block's popover says its name, word for word, and its marks' words hide meanwhile: what shows is
                    // then always within the name, in its order (WCAG 2.5.3), on hover and on focus from the keyboard too.
                    const whilePopover = short ? 'group-hover:hidden group-focus-visible:hidden' : '';
                    // Past the middle of the day the popover opens leftwards, so it stays on the lane.
                    const late = block.from - layout.startMinute > span / 2;
                    return (
                      <button
                        key={appointment.id}
                        type="button"
                        data-testid="schedule-block"
                        data-state={state}
                        data-overdue={alert ? 'true' : undefined}
                        data-fixed={fixed ? 'true' : undefined}
                        data-pms-write={appointment.pms_write_state ?? undefined}
                        {...drag.blockProps(block, lane.practitionerId)}
                        onClick={() => {
                          if (!drag.takeSwallowedClick()) openAppointmentModal(appointment.id);
                        }}
                        aria-label={`${time} ${described}`}
                        title={`${times} ${name}${type ? ` (${type})` : ''}${stateText ? `\n${stateText}` : ''}${partner ? `\n${twoCarerText(partner)}` : ''}${warning ? `\n${warning}` : ''}${unsaved ? `\n${unsaved}` : ''}${inLeave ? `\nBooked while the practitioner is on leave: reassign it.` : ''}${visitProblems.map((problem) => `\n${problem.message}`).join('')}${dragHint ? `\n${dragHint}` : ''}`}
                        className={`group absolute inset-y-1 rounded px-1 text-left text-[11px] leading-tight text-white shadow-sm select-none hover:z-20 hover:brightness-110 focus-visible:z-10 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-slate-900 dark:focus-visible:outline-white ${
                          short ? '' : 'overflow-hidden'
                        } ${block.overlapsPrevious ? 'ring-2 ring-rose-500' : ''} ${outside ? 'outline-2 outline-offset-1 outline-amber-500' : ''} ${onMoveVisit && !fixed ? 'cursor-grab [-webkit-touch-callout:none] active:cursor-grabbing' : ''} ${moving ? 'opacity-40' : ''} ${alert ? 'ring-2 ring-rose-700 ring-offset-1 dark:ring-rose-400' : ''} ${held ? 'z-10 scale-110 shadow-lg ring-2 ring-slate-900 dark:ring-white' : ''}`}
                        style={{
                          left: percent(block.from), width: width(block.from, block.to), backgroundColor: background, color: textColorOn(background),
                          ...(inLeave ? { backgroundImage: LEAVE_STRIPES } : {}),
                        }}
                      >
                        {short ? (
                          // Too narrow for words: they show in a popover on hover and focus (and are the accessible name).
                          <span
                            role="tooltip"
                            data-testid="schedule-block-popover"
                            className={`pointer-events-none absolute bottom-full z-30 mb-1 hidden rounded bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white shadow-lg group-hover:block group-focus-visible:block dark:bg-white dark:text-slate-900 ${late ? 'right-0' : 'left-0'}`}
                          >
                            <span className="font-semibold tabular-nums">{time}</span> {described}
                          </span>
                        ) : (
                          // The spaces between the lines keep the words apart in the text read out (WCAG 2.5.3: it is the name's start).
                          <>
                            <span className="flex items-center gap-1 font-semibold tabular-nums">
                              {!cancelled && <VisitStateMark state={state} />}
                              <span className="truncate">{outside && <span aria-hidden="true">⚠ </span>}{time}</span>
                            </span>{' '}
                            <span className={`block truncate ${state === 'could_not_attend' ? 'line-through' : ''}`}>{name}</span>{' '}
                            {/* Each line ends in a space, so that its last word and the next mark's are two words to read. */}
                            {actual && <><span data-testid="block-actual" className="block truncate font-medium tabular-nums">{actual}</span>{' '}</>}
                            {partner && <><TwoCarerMark partner={partner} />{' '}</>}
                            {unsaved && (
                              <span data-testid="block-pms-write" className={`mt-0.5 inline-block max-w-full truncate rounded px-1 text-[10px] font-bold ${PMS_MARK_CLASSES[appointment.pms_write_state!]}`}>
                                {unsaved}
                              </span>
                            )}
                            {unsaved && ' '}
                          </>
                        )}
                        {short && !cancelled && <VisitStateMark state={state} className="absolute top-0.5 left-1/2 z-10 -translate-x-1/2" />}
                        {alert && <AlertMark alert={alert} className={whilePopover} />}
                        {short && unsaved && (
                          <span data-testid="block-pms-write" aria-hidden="true" className={`absolute -top-1 left-0.5 z-10 rounded px-0.5 text-[9px] leading-tight font-bold ${PMS_MARK_CLASSES[appointment.pms_write_state!]}`}>
                            {appointment.pms_write_state === 'saving' ? '…' : '!'}
                          </span>
                        )}
                        {short && partner && (
                          <span data-testid="two-carer" className="absolute top-0.5 left-0.5" aria-hidden="true">
                            <Icon name="clients" className="size-3" />
                          </span>
                        )}
                        {warning && (
                          <span data-testid="block-travel-warning" className="absolute top-0.5 right-0.5 rounded-full bg-white p-px text-rose-600" aria-hidden="true">
                            <Icon name="warning" className="size-3.5" />
                          </span>
                        )}
                        {visitProblems.length > 0 && (
                          <span data-testid="block-rule-problem" className="absolute right-0.5 bottom-0.5 rounded-full bg-white p-px" aria-hidden="true">
                            <ProblemMark problems={visitProblems} />
                          </span>
                        )}
                        {inLeave && (
                          <span data-testid="block-on-leave" className={`absolute bottom-0.5 left-0.5 rounded bg-white px-0.5 text-[9px] font-bold text-violet-800 uppercase ${whilePopover}`} aria-hidden="true">
                            On leave
                          </span>
                        )}
                      </button>
                    );
                  })}
                  {fit?.practitionerId === lane.practitionerId && (
                    <span
                      role="note"
                      data-testid="schedule-fit"
                      aria-label={`The new visit fits here, ${clockOf(fit.from)}–${clockOf(fit.to)}`}
                      className="pointer-events-none absolute inset-y-1 z-10 rounded border-2 border-dashed border-emerald-600 bg-emerald-50/80 px-1 text-[11px] leading-tight font-semibold text-emerald-900 tabular-nums dark:border-emerald-400 dark:bg-emerald-950/70 dark:text-emerald-100"
                      style={{ left: percent(fit.from), width: width(fit.from, fit.to) }}
                    >
                      Fits here {clockOf(fit.from)}
                    </span>
                  )}
                  {outline?.practitionerId === lane.practitionerId && (
                    <span
                      data-testid="drag-outline"
                      aria-hidden="true"
                      className="pointer-events-none absolute inset-y-0.5 z-20 rounded border-2 border-dashed border-slate-900 bg-white/70 px-1 text-[11px] leading-tight font-semibold text-slate-900 tabular-nums dark:border-white dark:bg-slate-900/70 dark:text-white"
                      style={{ left: percent(outline.from), width: width(outline.from, outline.to) }}
                    >
                      {clockOf(outline.from)}
                    </span>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      </div>
      <ScheduleLegend />
      {/* What a drop would do, for screen readers and as the words under the outline. */}
      <p role="status" className="sr-only">
        {drag.target ? `Drop to move to ${laneOf(drag.target.practitionerId)?.practitionerName} at ${clockOf(drag.target.from)}.` : ''}
      </p>
    </div>
  );
}

/** The day on a phone: each practitioner's visits one under the other in visiting order, each opening its details. */
function DayAgenda({ layout, businessTimeZone, laneNote, warnings, problems, onLeave, overdue, live, onNewVisit }: {
  onNewVisit?: (practitionerId: number, time: string | null) => void;
  layout: ReturnType<typeof layoutSchedule>;
  businessTimeZone?: string | null;
  laneNote?: (practitionerId: number) => ReactNode;
  warnings?: ReadonlyMap<number, string>;
  problems?: ReadonlyMap<number, readonly ScheduleProblem[]>;
  onLeave?: ReadonlySet<number>;
  overdue?: ReadonlyMap<number, DeskAlert>;
  live: boolean;
}) {
  const zone = appointmentTimeZone(businessTimeZone);
  return (
    <>
    <ul aria-label="Practitioners' visits" data-testid="day-agenda" className="space-y-4 px-4 py-3">
      {layout.lanes.map((lane, laneIndex) => {
        const color = lane.blocks[0]?.appointment.practitioner.color ?? LANE_COLORS[laneIndex % LANE_COLORS.length];
        return (
          <li key={lane.practitionerId} data-testid="schedule-lane" aria-label={lane.practitionerName}>
            <h3 className="text-sm font-semibold">
              <span className="mr-2 inline-block size-2.5 rounded-full" style={{ backgroundColor: color }} aria-hidden="true" />
              {lane.practitionerName}
              <span className="ml-2 text-xs font-normal text-slate-500 dark:text-slate-400">{lane.blocks.length} {lane.blocks.length === 1 ? 'visit' : 'visits'}</span>
            </h3>
            <LeaveCount count={lane.blocks.filter((block) => onLeave?.has(block.appointment.id)).length} />
            {live && <LaneLate appointments={lane.blocks.map((block) => block.appointment)} />}
            <div className="text-xs">{laneNote?.(lane.practitionerId)}</div>
            {onNewVisit && <LaneNewVisit name={lane.practitionerName} onClick={() => onNewVisit(lane.practitionerId, null)} className="mt-1 min-h-11 text-sm" />}
            <ol className="mt-2 space-y-1.5">
              {lane.blocks.map((block) => {
                const { appointment } = block;
                const { span, name, type } = visitLabel(block, businessTimeZone);
                const outside = isAppointmentOutsideAvailability(appointment, businessTimeZone);
                const warning = warnings?.get(appointment.id);
                const partner = partnerOf(appointment);
                const alert = overdue?.get(appointment.id);
                const state = appointment.visit_state ?? 'not_started';
                const times = actualTimesText(appointment.visit ?? null, zone);
                return (
                  <li key={appointment.id}>
                    <button
                      type="button"
                      data-testid="schedule-block"
                      data-state={state}
                      data-overdue={alert ? 'true' : undefined}
                      onClick={() => openAppointmentModal(appointment.id)}
                      className="flex w-full items-start gap-3 rounded-md border border-slate-200 bg-white px-3 py-2 text-left text-sm hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:hover:bg-slate-800"
                      style={{ borderLeft: `4px solid ${appointment.appointment_type?.color || color}` }}
                    >
                      <span className="w-24 shrink-0 font-semibold tabular-nums">{span}</span>
                      <span className="min-w-0 flex-1">
                        <span className="block font-medium [overflow-wrap:anywhere]">{name}</span>
                        {type && <span className="block text-xs text-slate-600 dark:text-slate-300">{type}</span>}
                        {appointment.status !== 'CANCELLED' && state !== 'not_started' && (
                          <span data-testid="block-actual" className="flex items-center gap-1 text-xs text-slate-700 tabular-nums dark:text-slate-200">
                            <VisitStateMark state={state} />
                            {times || STATE_LABELS[state]}
                          </span>
                        )}
                        {alert && (
                          <span data-testid="block-overdue" data-kind={alert.kind} className="block text-xs font-semibold text-rose-700 dark:text-rose-300">
                            {alert.kind === 'not_started' ? 'Not started · ' : ''}{alertShortWords(alert)}
                          </span>
                        )}
                        {partner && <TwoCarerMark partner={partner} className="text-xs text-slate-700 dark:text-slate-300" />}
                        {outside && <span className="block text-xs text-amber-800 dark:text-amber-300">⚠ Outside client’s availability</span>}
                        {warning && <span data-testid="block-travel-warning" className="block text-xs text-rose-700 dark:text-rose-300">{warning}</span>}
                        {(problems?.get(appointment.id) ?? []).map((problem) => (
                          <span key={problem.message} data-testid="block-rule-problem" className="flex items-start gap-1 text-xs text-slate-700 dark:text-slate-300">
                            <ProblemMark problems={[problem]} className="mt-px" />
                            {problem.message}
                          </span>
                        ))}
                        {onLeave?.has(appointment.id) && (
                          <span data-testid="block-on-leave" className="block text-xs font-medium text-violet-700 dark:text-violet-300">Booked while the practitioner is on leave</span>
                        )}
                        <PmsWriteMark appointment={appointment} className="mt-0.5" />
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
          </li>
        );
      })}
    </ul>
    <ScheduleLegend />
    </>
  );
}
