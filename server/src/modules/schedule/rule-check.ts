// A day's visits, where and with whom they are (now, or as a plan would have them), read by the schedule's day
// checker: the proposal's before → after, Apply's check and the day's list of problems all go through here.
import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '../../http/contract';
import type { TimeWindow } from '../../optimizer';
import type { PractitionerDay } from '../practitioners';
import { dayIssues, issueKey, newHardIssues, type CheckedVisit, type DayIssue } from './day-check';
import { availabilityWindows, currentArrival, dayStartMs, secondsOf, type DayVisit } from './day-model';
import type { StaffOfDay } from './day-visits';
import type { RuleBook } from './rules';

/** A visit as a plan has it: its practitioner and its arrival. */
export interface Placement { visit: DayVisit; practitionerId: number; start: Date }

export interface CheckContext {
  rules: RuleBook;
  /** The day's clock: its zero (epoch ms) and the business's time zone. */
  zeroMs: number;
  timeZone: string;
  /** The run's practitioners: their names, zones and working hours on the day's clock (others: the visit's own). */
  practitioners: Map<number, { name: string; timeZone: string; shift: TimeWindow | null }>;
  /** Every practitioner's leave and skills on the day (`dayStaff`); one not in it has neither. */
  staff: ReadonlyMap<number, StaffOfDay>;
  /** Travel seconds between two visits' points, by appointment id (null: not known); without it, travel is not checked. */
  travel?: (fromId: number, toId: number) => number | null;
}

/** A practitioner as the check reads them: their name, time zone and working hours that day (leave is a rule of its own). */
export type PractitionerOfCheck = Pick<PractitionerDay, 'practitionerId' | 'name' | 'timeZone' | 'dayStart' | 'hours'>;

/** Practitioners' names, zones and working hours on the day's clock (whose zero is `zeroMs`), as the check reads them. */
export function practitionersOnClock(days: readonly PractitionerOfCheck[], zeroMs: number): CheckContext['practitioners'] {
  return new Map(days.map((day) => {
    // Their day counts from their own midnight; the check's from the business's.
    const offset = (day.dayStart.getTime() - zeroMs) / 1000;
    const shift = day.hours && day.hours.end > day.hours.start ? { start: day.hours.start + offset, end: day.hours.end + offset } : null;
    return [day.practitionerId, { name: day.name, timeZone: day.timeZone, shift }];
  }));
}

/**
 * The day a plan is checked against: every visit of the day (every practitioner's) where it is now, and what the
 * rules read of the day. The proposal's before → after and Apply's check both start from this, built by `dayCheckOf`.
 */
export interface DayCheck {
  now: Placement[];
  context: CheckContext;
}

export interface DayCheckInput {
  date: string;
  timeZone: string;
  rules: RuleBook;
  /** Every visit of the day that is not cancelled (`dayVisits` with no practitioner filter). */
  visits: readonly DayVisit[];
  staff: ReadonlyMap<number, StaffOfDay>;
  /** The practitioners whose working hours and zones the check knows (a run's: every one it names). */
  practitioners: readonly PractitionerOfCheck[];
}

export function dayCheckOf(input: DayCheckInput): DayCheck {
  const zeroMs = dayStartMs(input.date, input.timeZone);
  return {
    now: asTheyAre(input.visits),
    context: { rules: input.rules, zeroMs, timeZone: input.timeZone, staff: input.staff, practitioners: practitionersOnClock(input.practitioners, zeroMs) },
  };
}

/** Where a plan puts a visit of the day (visits it does not name stay where they are). */
export interface PlannedVisit { practitionerId: number; start: Date }

/** A plan's problems on its day: before (the day as it is) and after, and the hard ones it adds (a proposal adds none). */
export interface PlanCheck {
  before: DayIssue[];
  after: DayIssue[];
  hardAdded: DayIssue[];
}

/**
 * The one check of a plan against its day: the proposal's before → after, the job's rounds and Apply all call it on a
 * `DayCheck`, so a proposal that adds no hard problem is one Apply accepts while the day has not changed. `travel`
 * (the plan's matrix) adds the travel-time rule, which is soft and never decides.
 */
export function checkPlan(day: DayCheck, planned: ReadonlyMap<number, PlannedVisit>, travel?: CheckContext['travel']): PlanCheck {
  const context = travel ? { ...day.context, travel } : day.context;
  const before = issuesOfPlan(day.now, context);
  const after = issuesOfPlan(day.now.map((placement) => {
    const plan = planned.get(placement.visit.id);
    return plan ? { ...placement, practitionerId: plan.practitionerId, start: plan.start } : placement;
  }), context);
  return { before, after, hardAdded: newHardIssues(before, after) };
}

/** The soft problems of `after` that `before` does not have. */
export const softIssuesAdded = (before: readonly DayIssue[], after: readonly DayIssue[]): DayIssue[] => {
  const known = new Set(before.map(issueKey));
  return after.filter((issue) => !issue.hard && !known.has(issueKey(issue)));
};

/** Each visit where it is now. */
export const asTheyAre = (visits: readonly DayVisit[]): Placement[] =>
  visits.map((visit) => ({ visit, practitionerId: visit.practitionerId, start: currentArrival(visit) }));

export function issuesOfPlan(placements: readonly Placement[], ctx: CheckContext): DayIssue[] {
  const midnight = Temporal.Instant.fromEpochMilliseconds(ctx.zeroMs).toZonedDateTimeISO(ctx.timeZone);
  const dayEnd = secondsOf(new Date(midnight.add({ days: 1 }).epochMilliseconds), ctx.zeroMs);
  const checked = placements.map(({ visit, practitionerId, start }): CheckedVisit => {
    const practitioner = ctx.practitioners.get(practitionerId);
    const staff = ctx.staff.get(practitionerId);
    return {
      id: visit.id,
      practitionerId,
      bookedPractitionerId: visit.practitionerId,
      practitionerName: practitioner?.name ?? visit.practitionerName,
      clientId: visit.clientId,
      clientName: visit.clientName,
      typeId: visit.appointmentTypeId,
      booked: secondsOf(visit.startsAt, ctx.zeroMs),
      agreed: secondsOf(visit.agreedStartsAt, ctx.zeroMs),
      duration: Math.max(0, (visit.endsAt.getTime() - visit.startsAt.getTime()) / 1000),
      start: secondsOf(start, ctx.zeroMs),
      availability: availabilityWindows(visit, practitioner?.timeZone ?? ctx.timeZone, ctx.zeroMs),
      shift: practitioner?.shift ?? null,
      // Leave within the day: leave over several days reads as the part of it on this day.
      leave: (staff?.leave ?? []).map((leave) => ({
        start: Math.max(0, secondsOf(leave.startsAt, ctx.zeroMs)), end: Math.min(dayEnd, secondsOf(leave.endsAt, ctx.zeroMs)),
      })),
      skills: staff ? staff.skills : null,
      excludedPractitionerIds: visit.excludedPractitionerIds ?? [],
    };
  });
  const clock = (seconds: number) => seconds >= dayEnd ? '24:00' : Temporal.Instant.fromEpochMilliseconds(Math.round(ctx.zeroMs + seconds * 1000))
    .toZonedDateTimeISO(ctx.timeZone).toPlainTime().toString({ smallestUnit: 'minute' });
  const travel = ctx.travel;
  return dayIssues(checked, ctx.rules, clock, travel && ((from, to) => travel(from.id, to.id)));
}

export const ruleIssueDto = (issue: DayIssue): Schemas['RuleIssue'] =>
  ({ rule: issue.rule, hard: issue.hard, appointment_ids: issue.appointmentIds, message: issue.message });

const issueOfDto = (issue: Schemas['RuleIssue']): DayIssue =>
  ({ rule: issue.rule, hard: issue.hard, appointmentIds: issue.appointment_ids, message: issue.message });

/** The hard problems a proposal's plan adds to its day (none, by ADR 0020), from its checks. */
export const hardIssuesAdded = (checks: Pick<Schemas['RuleChecks'], 'before' | 'after'>): DayIssue[] =>
  newHardIssues(checks.before.map(issueOfDto), checks.after.map(issueOfDto));
