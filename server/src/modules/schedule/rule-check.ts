// A day's visits, where and with whom they are (now, or as a plan would have them), read by the schedule's day
// checker: the proposal's before → after, Apply's check and the day's list of problems all go through here.
import { Temporal } from 'temporal-polyfill';
import type { Schemas } from '../../http/contract';
import type { TimeWindow } from '../../optimizer';
import { dayIssues, newHardIssues, type CheckedVisit, type DayIssue } from './day-check';
import { availabilityWindows, currentArrival, secondsOf, type DayVisit } from './day-model';
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
}

/** Each visit where it is now. */
export const asTheyAre = (visits: readonly DayVisit[]): Placement[] =>
  visits.map((visit) => ({ visit, practitionerId: visit.practitionerId, start: currentArrival(visit) }));

export function issuesOfPlan(placements: readonly Placement[], ctx: CheckContext): DayIssue[] {
  const checked = placements.map(({ visit, practitionerId, start }): CheckedVisit => {
    const practitioner = ctx.practitioners.get(practitionerId);
    return {
      id: visit.id,
      practitionerId,
      bookedPractitionerId: visit.practitionerId,
      practitionerName: practitioner?.name ?? visit.practitionerName,
      clientId: visit.clientId,
      clientName: visit.clientName,
      typeId: visit.appointmentTypeId,
      booked: secondsOf(visit.startsAt, ctx.zeroMs),
      duration: Math.max(0, (visit.endsAt.getTime() - visit.startsAt.getTime()) / 1000),
      start: secondsOf(start, ctx.zeroMs),
      availability: availabilityWindows(visit, practitioner?.timeZone ?? ctx.timeZone, ctx.zeroMs),
      shift: practitioner?.shift ?? null,
    };
  });
  const clock = (seconds: number) => Temporal.Instant.fromEpochMilliseconds(Math.round(ctx.zeroMs + seconds * 1000))
    .toZonedDateTimeISO(ctx.timeZone).toPlainTime().toString({ smallestUnit: 'minute' });
  return dayIssues(checked, ctx.rules, clock);
}

export const ruleIssueDto = (issue: DayIssue): Schemas['RuleIssue'] =>
  ({ rule: issue.rule, hard: issue.hard, appointment_ids: issue.appointmentIds, message: issue.message });

const issueOfDto = (issue: Schemas['RuleIssue']): DayIssue =>
  ({ rule: issue.rule, hard: issue.hard, appointmentIds: issue.appointment_ids, message: issue.message });

/** The hard problems a proposal's plan adds to its day (none, by ADR 0020), from its checks. */
export const hardIssuesAdded = (checks: Pick<Schemas['RuleChecks'], 'before' | 'after'>): DayIssue[] =>
  newHardIssues(checks.before.map(issueOfDto), checks.after.map(issueOfDto));
