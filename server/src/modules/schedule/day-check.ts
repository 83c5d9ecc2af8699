// The day checker: a day's problems by rule of the rule book, each naming its visits in words. Used for the day's
// list and marks, the dashboard, a proposal's before → after and Apply's check. Pure.
import type { TimeWindow } from '../../optimizer';
import { isDoubleHanded, RULES, toleranceWindow, type RuleBook, type RuleId } from './rules';

export interface CheckedVisit {
  id: number;
  /** The practitioner in the plan being checked. */
  practitionerId: number;
  /** The practitioner it is booked with (two bookings of a client at one time with two of them are a two-carer visit). */
  bookedPractitionerId: number;
  practitionerName: string;
  clientId: number | null;
  clientName: string | null;
  typeId: number | null;
  /** Booked start and length (seconds on the day's clock). */
  booked: number;
  /** The start the client agreed to (day's clock; ADR 0023): the tolerance is measured from it. Absent: the booked start. */
  agreed?: number;
  duration: number;
  /** Where the visit starts in the plan being checked. */
  start: number;
  /** The client's availability for the start (null: no custom availability). */
  availability: TimeWindow[] | null;
  /** The practitioner's working hours that day, when known. */
  shift: TimeWindow | null;
  /** The practitioner's leave overlapping the day (day's clock). */
  leave: TimeWindow[];
  /** The appointment types the practitioner delivers (null: every type). */
  skills: readonly number[] | null;
  /** The practitioners the client asked not to be visited by. */
  excludedPractitionerIds: readonly number[];
}

/** Travel seconds from the end of one visit to the start of the next (null: not known, e.g. no map point). */
export type TravelBetween = (from: CheckedVisit, to: CheckedVisit) => number | null;

export interface DayIssue {
  rule: RuleId;
  hard: boolean;
  appointmentIds: number[];
  message: string;
}

/** The day's problems, in the rule book's order, then by time. `clock` writes a time of the day's clock as HH:mm (the day's end as 24:00). */
export function dayIssues(
  visits: readonly CheckedVisit[], rules: RuleBook, clock: (seconds: number) => string, travel?: TravelBetween,
): DayIssue[] {
  const issues: (DayIssue & { at: number })[] = [];
  const add = (rule: RuleId, at: number, ids: number[], message: string) =>
    issues.push({ rule, hard: rules.isHard(rule), appointmentIds: ids, message, at });
  const span = (visit: CheckedVisit) => `${clock(visit.start)}–${clock(visit.start + visit.duration)}`;
  const client = (visit: CheckedVisit) => visit.clientName || 'A client';
  const leaveText = (leave: TimeWindow) => {
    const [from, to] = [clock(leave.start), clock(leave.end)];
    return from === '00:00' && to === '24:00' ? 'all day' : `${from}–${to}`;
  };

  for (const [, lane] of groupBy(visits, (visit) => visit.practitionerId)) {
    lane.sort((a, b) => a.start - b.start || a.id - b.id);
    for (let i = 0; i < lane.length; i++) {
      for (let j = i + 1; j < lane.length && lane[j].start < lane[i].start + lane[i].duration; j++) {
        const [before, after] = [lane[i], lane[j]];
        add('practitioner-overlap', after.start, [before.id, after.id],
          `${after.practitionerName} has two visits at once: ${client(before)} ${span(before)} and ${client(after)} ${span(after)}.`);
      }
    }
    for (let k = 1; travel && k < lane.length; k++) {
      const [before, after] = [lane[k - 1], lane[k]];
      const gap = after.start - (before.start + before.duration);
      const needed = gap < 0 ? null : travel(before, after);
      if (needed !== null && needed > gap) {
        // In whole minutes as the schedule's block beside the visit says them ("needs 6 min": the journey rounded up),
        // the gap rounded down: the minutes printed always show the shortfall the seconds compared.
        add('travel-time', after.start, [before.id, after.id],
          `${after.practitionerName} has ${minutesText(Math.floor(gap / 60) * 60)} to get from ${client(before)} (ends ${clock(before.start + before.duration)}) `
          + `to ${client(after)} (${clock(after.start)}); the journey takes about ${minutesText(Math.ceil(needed / 60) * 60)}.`);
      }
    }
    const shift = lane[0].shift;
    if (shift) {
      for (const visit of lane) {
        if (visit.start < shift.start || visit.start + visit.duration > shift.end) {
          add('working-hours', visit.start, [visit.id],
            `${client(visit)} ${span(visit)} is outside ${visit.practitionerName}'s working hours (${clock(shift.start)}–${clock(shift.end)}).`);
        }
      }
    }
  }

  for (const [clientId, own] of groupBy(visits, (visit) => visit.clientId)) {
    if (clientId === null) continue;
    own.sort((a, b) => a.booked - b.booked || a.id - b.id);
    const asBooked = (visit: CheckedVisit) => ({ ...visit, practitionerId: visit.bookedPractitionerId });
    for (const visit of own) {
      if (rules.needsTwo(visit.typeId) && !own.some((other) => isDoubleHanded(asBooked(visit), asBooked(other)))) {
        add('double-handed', visit.start, [visit.id],
          `${client(visit)}'s ${rules.typeName(visit.typeId) ?? 'visit'} at ${clock(visit.booked)} needs two practitioners; only ${visit.practitionerName} is booked.`);
      }
    }
    for (let i = 0; i < own.length; i++) {
      for (let j = i + 1; j < own.length; j++) {
        const [first, second] = [own[i], own[j]];
        if (isDoubleHanded(asBooked(first), asBooked(second))) {
          if (first.start !== second.start) {
            add('double-handed', Math.min(first.start, second.start), [first.id, second.id],
              `${client(first)}'s two-carer visit booked ${clock(first.booked)}: ${first.practitionerName} arrives ${clock(first.start)}, ${second.practitionerName} ${clock(second.start)}.`);
          }
          continue;
        }
        const [earlier, later] = first.start <= second.start ? [first, second] : [second, first];
        if (earlier.start + earlier.duration > later.start) {
          add('client-overlap', later.start, [first.id, second.id],
            `${client(first)} has two visits at once: ${span(earlier)} with ${earlier.practitionerName} and ${span(later)} with ${later.practitionerName}.`);
          continue;
        }
        const gap = rules.gapBetween(first.typeId, second.typeId);
        if (second.start < first.start) {
          add('spacing', second.start, [first.id, second.id],
            `${client(first)}'s visits are out of their booked order: the one booked ${clock(second.booked)} is now before the one booked ${clock(first.booked)}.`);
        } else if (second.start - (first.start + first.duration) < gap) {
          add('spacing', second.start, [first.id, second.id],
            `${client(first)}'s visits at ${clock(first.start)} and ${clock(second.start)} are less than ${minutesText(gap)} apart (end to start).`);
        }
      }
    }
  }

  for (const visit of visits) {
    const away = visit.leave.filter((leave) => leave.start < visit.start + visit.duration && leave.end > visit.start);
    if (away.length > 0) {
      add('on-leave', visit.start, [visit.id],
        `${client(visit)} ${span(visit)} is booked with ${visit.practitionerName}, who is on leave ${away.map(leaveText).join(', ')}.`);
    }
    if (visit.typeId !== null && visit.skills !== null && !visit.skills.includes(visit.typeId)) {
      add('skills', visit.start, [visit.id],
        `${client(visit)} ${span(visit)} is with ${visit.practitionerName}, who does not deliver ${rules.typeName(visit.typeId) ?? 'this type of visit'}.`);
    }
    if (visit.excludedPractitionerIds.includes(visit.practitionerId)) {
      add('excluded-practitioner', visit.start, [visit.id],
        `${client(visit)} has asked not to be visited by ${visit.practitionerName} (visit ${span(visit)}).`);
    }
    const agreed = visit.agreed ?? visit.booked;
    const allowed = toleranceWindow(rules, visit.typeId, agreed);
    if (visit.start < allowed.start || visit.start > allowed.end) {
      add('tolerance', visit.start, [visit.id],
        `${client(visit)}'s visit booked ${clock(agreed)} arrives ${clock(visit.start)}: more than ${minutesText(rules.toleranceOf(visit.typeId))} from the booked time.`);
    }
    if (visit.availability && !visit.availability.some((window) => visit.start >= window.start && visit.start <= window.end)) {
      add('availability', visit.start, [visit.id], visit.availability.length === 0
        ? `${client(visit)} is not available on this day (visit at ${clock(visit.start)}).`
        : `${client(visit)}'s visit at ${clock(visit.start)} is outside their availability.`);
    }
  }

  const order = new Map(RULES.map((rule, index) => [rule.id, index]));
  return issues.sort((a, b) => order.get(a.rule)! - order.get(b.rule)! || a.at - b.at)
    .map(({ at: _at, ...issue }) => issue);
}

/** A problem's identity: the same rule broken by the same visits. */
export const issueKey = (issue: Pick<DayIssue, 'rule' | 'appointmentIds'>) => `${issue.rule}:${[...issue.appointmentIds].sort((a, b) => a - b).join(',')}`;

/**
 * The hard problems of `after` that `before` does not have: what would make a plan worse. A practitioner's overlap
 * is new when one of its visits overlapped nothing before (a visit left where it is may now overlap another pair).
 */
export function newHardIssues(before: readonly DayIssue[], after: readonly DayIssue[]): DayIssue[] {
  const known = new Set(before.map(issueKey));
  const overlapping = new Set(before.filter((issue) => issue.rule === 'practitioner-overlap').flatMap((issue) => issue.appointmentIds));
  return after.filter((issue) => issue.hard && !(issue.rule === 'practitioner-overlap'
    ? issue.appointmentIds.every((id) => overlapping.has(id))
    : known.has(issueKey(issue))));
}

/** Problems counted per rule, in the rule book's order. */
export const countsByRule = (issues: readonly DayIssue[], rules: RuleBook) => RULES.map((rule) => ({
  rule: rule.id, title: rule.title, hard: rules.isHard(rule.id), count: issues.filter((issue) => issue.rule === rule.id).length,
}));

function minutesText(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  if (minutes % 60 === 0 && minutes >= 60) return `${minutes / 60} h`;
  return minutes > 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item); else groups.set(key, [item]);
  }
  return groups;
}
