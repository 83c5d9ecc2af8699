// A proposal's lanes, one per practitioner, along the day: the working hours as a band, each visit as a block from its
// arrival to its departure, the drive before it as a line, the break. "Before" is the day as it is, "after" as proposed.
// Each half of a two-carer visit says "with" the other practitioner. "Changes only" dims the visits the proposal keeps;
// the visit chosen from a change or a problem is outlined and scrolled into view. A lane with visits not placed says
// its figures counting them where they stay (as the day's figures do).
import { useEffect, useRef } from 'react';
import { formatTime, minutesIntoDay } from '../../../lib/dates';
import { plural } from '../../../lib/plural';
import type { OptimizationProposal } from '../../../api/optimizations';
import { Icon } from '../../../ui/Icon';
import { TwoCarerMark } from '../../../ui/TwoCarerMark';
import { withPartnerText } from '../../../entities/appointments/facts';
import { formatMinutes } from '../../../entities/routes/dayPlan';
import { textColorOn } from '../../../lib/contrast';

type Lane = OptimizationProposal['lanes'][number];
export type LaneSide = 'before' | 'after';

const hourLabel = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:00`;

/** The axis of every lane: whole hours around the shifts and the visits, on the business's clock. */
function axisOf(lanes: readonly Lane[], side: LaneSide, timeZone: string): { from: number; to: number } {
  let from = 24 * 60;
  let to = 0;
  const see = (iso: string | null | undefined) => {
    if (!iso) return;
    const minute = minutesIntoDay(iso, timeZone);
    from = Math.min(from, minute);
    to = Math.max(to, minute);
  };
  for (const lane of lanes) {
    see(lane.shift_start);
    see(lane.shift_end);
    const day = lane[side];
    see(day.depart_at);
    see(day.end_at);
    for (const stop of day.stops) {
      see(stop.reach_at);
      see(stop.depart_at);
    }
  }
  if (from >= to) return { from: 8 * 60, to: 17 * 60 };
  return { from: Math.floor(from / 60) * 60, to: Math.min(24 * 60, Math.ceil(to / 60) * 60) };
}

export function ProposalLanes({ lanes, side, timeZone, changedIds, changesOnly = false, focused = null }: {
  lanes: readonly Lane[];
  side: LaneSide;
  timeZone: string;
  /** Visits the proposal changes, marked on the "after" lanes. */
  changedIds: ReadonlySet<number>;
  /** Dim the visits the proposal keeps as they are. */
  changesOnly?: boolean;
  /** The visit chosen from a change or a problem: outlined and scrolled into view. */
  focused?: number | null;
}) {
  const focusedBlock = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (focused !== null) focusedBlock.current?.scrollIntoView?.({ block: 'nearest', inline: 'center' });
  }, [focused, side]);
  const axis = axisOf(lanes, side, timeZone);
  const span = axis.to - axis.from;
  const at = (iso: string) => Math.min(Math.max(minutesIntoDay(iso, timeZone), axis.from), axis.to);
  const percent = (minute: number) => `${(((minute - axis.from) / span) * 100).toFixed(3)}%`;
  const width = (from: number, to: number) => `${((Math.max(to - from, 0) / span) * 100).toFixed(3)}%`;
  const hours: number[] = [];
  for (let minute = axis.from; minute <= axis.to; minute += 60) hours.push(minute);

  return (
    // Focusable, so the lanes scroll from the keyboard on a narrow screen.
    <div className="relative overflow-x-auto" data-testid="proposal-lanes" data-side={side} tabIndex={0} role="region" aria-label={side === 'before' ? 'Lanes before' : 'Lanes after'}>
      <div className="min-w-[44rem]">
        <div className="relative ml-36 h-5 text-[10px] text-slate-500 dark:text-slate-400">
          {hours.map((minute) => (
            <span key={minute} className="absolute -translate-x-1/2 tabular-nums" style={{ left: percent(minute) }}>{hourLabel(minute)}</span>
          ))}
        </div>
        <ul aria-label={side === 'before' ? 'Lanes as the day is' : 'Lanes as proposed'} className="space-y-2">
          {lanes.map((lane) => {
            const day = lane[side];
            const shiftFrom = at(lane.shift_start);
            const shiftTo = at(lane.shift_end);
            return (
              <li key={lane.practitioner_id} data-testid="proposal-lane" aria-label={lane.practitioner_name} className="flex items-stretch">
                <div className="w-36 shrink-0 pr-3 text-sm font-medium">
                  <span className="flex items-center gap-2 truncate" title={lane.practitioner_name}>
                    <span className="inline-block size-2.5 shrink-0 rounded-full" style={{ backgroundColor: lane.color }} aria-hidden="true" />
                    <span className="truncate">{lane.practitioner_name}</span>
                  </span>
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400" data-testid="proposal-lane-figures">
                    {plural(day.stops.length, 'visit')} · {formatMinutes(day.metrics.travel_seconds)} travel
                  </span>
                  {side === 'after' && day.counted && (
                    <span className="block text-xs font-normal text-amber-800 dark:text-amber-300" data-testid="proposal-lane-counted">
                      +{day.counted.unplaced ?? 0} not placed: {formatMinutes(day.counted.travel_seconds)} travel
                    </span>
                  )}
                </div>
                <div className="relative h-12 flex-1 rounded-md bg-slate-50 dark:bg-slate-800/60">
                  <span
                    aria-hidden="true"
                    title={`Working hours ${formatTime(lane.shift_start, timeZone)}–${formatTime(lane.shift_end, timeZone)}`}
                    className="absolute inset-y-0 rounded-md bg-sky-100/70 dark:bg-sky-900/30"
                    style={{ left: percent(shiftFrom), width: width(shiftFrom, shiftTo) }}
                  />
                  {hours.map((minute) => (
                    <span key={minute} aria-hidden="true" className="absolute inset-y-0 border-l border-slate-200 dark:border-slate-700" style={{ left: percent(minute) }} />
                  ))}
                  {day.break && (
                    <span
                      aria-hidden="true"
                      title={`Break ${formatTime(day.break.start_at, timeZone)}–${formatTime(day.break.end_at, timeZone)}`}
                      className="absolute inset-y-4 rounded bg-slate-300/80 dark:bg-slate-600/80"
                      style={{ left: percent(at(day.break.start_at)), width: width(at(day.break.start_at), at(day.break.end_at)) }}
                    />
                  )}
                  <ol aria-label={`${lane.practitioner_name}'s visits`}>
                    {day.stops.map((stop) => {
                      const reach = at(stop.reach_at);
                      const driveFrom = Math.max(axis.from, reach - stop.travel_seconds / 60);
                      const from = at(stop.arrive_at);
                      const to = at(stop.depart_at);
                      const time = formatTime(stop.arrive_at, timeZone);
                      const changed = side === 'after' && changedIds.has(stop.appointment_id);
                      const isFocused = stop.appointment_id === focused;
                      const notes = [
                        changed ? 'changed' : null,
                        stop.kept === 'locked' ? 'kept at this time' : null,
                        stop.kept === 'started' ? 'started or about to: stays as it is' : null,
                        stop.kept === 'no-time-fits' ? "no other time keeps to its tolerance and the client's other visits: stays as it is" : null,
                        stop.outside_availability ? "outside the client's availability" : null,
                        stop.partner ? `two-carer visit ${withPartnerText(stop.partner)}` : null,
                      ].filter(Boolean);
                      const name = stop.client_name ?? 'Visit';
                      return (
                        <li key={stop.appointment_id} data-testid="proposal-stop" data-focused={isFocused || undefined} aria-label={`${time} ${name}${notes.length ? `, ${notes.join(', ')}` : ''}`}>
                          {stop.travel_seconds > 0 && (
                            <span
                              aria-hidden="true"
                              title={`${formatMinutes(stop.travel_seconds)} travel`}
                              className="absolute top-1/2 border-t-2 border-slate-500 dark:border-slate-400"
                              style={{ left: percent(driveFrom), width: width(driveFrom, reach) }}
                            />
                          )}
                          <span
                            ref={isFocused ? focusedBlock : undefined}
                            aria-hidden="true"
                            title={`${time} ${name}`}
                            className={`absolute inset-y-1 overflow-hidden rounded px-0.5 text-[10px] leading-tight text-white shadow-sm ${changed ? 'ring-2 ring-amber-400' : ''} ${stop.outside_availability ? 'outline-2 outline-offset-1 outline-rose-500' : ''} ${isFocused ? 'z-10 outline-3 outline-offset-2 outline-rose-600' : ''} ${changesOnly && !changed && !isFocused ? 'opacity-30' : ''}`}
                            style={{ left: percent(from), width: width(from, to), minWidth: '3px', backgroundColor: lane.color, color: textColorOn(lane.color) }}
                          >
                            <span className="flex items-center gap-0.5 font-semibold tabular-nums">
                              {stop.kept && stop.kept !== 'unavailable-day' && <Icon name="lock" className="size-2.5 shrink-0" />}
                              {time}
                            </span>
                            <span className="block truncate">{name}</span>
                            {stop.partner && <TwoCarerMark partner={stop.partner} />}
                          </span>
                        </li>
                      );
                    })}
                  </ol>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
