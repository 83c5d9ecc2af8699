// Every change made by hand (an arrival time, a move, an insertion into a route) is held to the same rule book as an
// optimisation: refused when it would break a hard rule the day does not already break.
import type { DbOrTx } from '../../db/client';
import { conflict } from '../../http/errors';
import type { TravelProvider } from '../../optimizer';
import { optimizationSettingsOf } from '../optimization-settings';
import { loadPractitionerDays } from '../practitioners';
import { newHardIssues, type DayIssue } from './day-check';
import { currentArrival, dayBounds, dayOf, dayStartMs, type DayVisit } from './day-model';
import { businessTimeZone } from '../../db/business-time-zone';
import { dayStaff, dayVisits, findVisit } from './day-visits';
import { loadRuleBook } from './rule-book';
import {
  asTheyAre, checkPlan, dayCheckOf, issuesOfPlan, practitionersOnClock, softIssuesAdded, type CheckContext, type DayCheck, type Placement, type PlannedVisit,
} from './rule-check';

/** A visit as an edit would leave it. */
export interface VisitEdit {
  id: number;
  practitionerId: number;
  /** The practitioner's name when the edit gives the visit to someone else (for the messages). */
  practitionerName?: string;
  startsAt: Date;
  endsAt: Date;
  arriveAt: Date | null;
  /** A new time agreed with the client by the edit (a move by hand); absent: the agreed time stays. */
  agreedStartsAt?: Date;
}

/** What a change would add to its day: hard problems (it is refused) and soft ones (it is allowed, and they are shown). */
export interface AddedIssues { hard: DayIssue[]; soft: DayIssue[] }

/**
 * The problems `change` would add to a day as it is now (its visits where they are now → where the change puts
 * them). `practitionerNames` names practitioners a visit moves to, for the messages. With `travel` (the optimiser's
 * travel provider), the days of the practitioners the change touches are also checked for travel time and working
 * hours (soft rules: what a change by hand is warned of).
 */
export async function issuesAddedBy(
  db: DbOrTx, businessAccountId: number, date: string, change: (now: Placement[]) => Placement[],
  practitionerNames: ReadonlyMap<number, string> = new Map(), travel?: TravelProvider, newVisitId?: number,
): Promise<AddedIssues> {
  return issuesAddedTo(db, await loadEditDay(db, businessAccountId, date), change, practitionerNames, travel, newVisitId);
}

/** A day as a change by hand is checked against: its visits, the rule book and every practitioner's leave and skills. */
export interface EditDay {
  businessAccountId: number;
  date: string;
  timeZone: string;
  visits: DayVisit[];
  staff: CheckContext['staff'];
  rules: CheckContext['rules'];
}

/** Reads the day once, for several changes checked against it (best fit's candidates). */
export async function loadEditDay(db: DbOrTx, businessAccountId: number, date: string): Promise<EditDay> {
  const timeZone = await businessTimeZone(db, businessAccountId);
  const bounds = dayBounds(date, timeZone);
  const [visits, settings, staff] = await Promise.all([
    dayVisits(db, businessAccountId, null, bounds),
    optimizationSettingsOf(db, businessAccountId),
    dayStaff(db, businessAccountId, bounds),
  ]);
  return { businessAccountId, date, timeZone, visits, staff, rules: await loadRuleBook(db, businessAccountId, settings) };
}

/** issuesAddedBy on a day read by loadEditDay. */
export async function issuesAddedTo(
  db: DbOrTx, day: EditDay, change: (now: Placement[]) => Placement[],
  practitionerNames: ReadonlyMap<number, string> = new Map(), travel?: TravelProvider, newVisitId?: number,
): Promise<AddedIssues> {
  const { businessAccountId, date, timeZone, visits, staff } = day;
  // A visit just booked (in the caller's transaction) is not part of the day as it was.
  const now = asTheyAre(visits.filter((visit) => visit.id !== newVisitId));
  const changed = newVisitId === undefined ? change(now) : asTheyAre(visits);
  const zeroMs = dayStartMs(date, timeZone);
  const practitioners: CheckContext['practitioners'] = new Map([...practitionerNames].map(([id, name]) => [id, { name, timeZone, shift: null }]));
  const touched = touchedPractitioners(now, changed);
  if (travel) {
    // Their working hours as their week gives them (leave is a rule of its own), on the day's clock.
    for (const [id, practitioner] of practitionersOnClock(await loadPractitionerDays(db, businessAccountId, [...touched], date), zeroMs)) {
      practitioners.set(id, practitioner);
    }
  }
  const context: CheckContext = {
    rules: day.rules, zeroMs, timeZone, staff, practitioners,
    travel: travel && await travelOfDays(travel, touched, [...now, ...changed]),
  };
  const before = issuesOfPlan(now, context);
  const after = issuesOfPlan(changed, context);
  return { hard: newHardIssues(before, after), soft: softIssuesAdded(before, after) };
}

/**
 * The day a run's plan is checked against, read as it is now: every visit of the day, the rule book, every
 * practitioner's leave and skills, and the run's practitioners' zones and working hours. A run reads the same
 * (optimizations' loadDay) for its proposal; Apply reads this.
 */
export async function loadDayCheck(db: DbOrTx, businessAccountId: number, date: string, practitionerIds: readonly number[]): Promise<DayCheck> {
  const timeZone = await businessTimeZone(db, businessAccountId);
  const bounds = dayBounds(date, timeZone);
  const [visits, settings, staff, practitioners] = await Promise.all([
    dayVisits(db, businessAccountId, null, bounds),
    optimizationSettingsOf(db, businessAccountId),
    dayStaff(db, businessAccountId, bounds),
    loadPractitionerDays(db, businessAccountId, [...practitionerIds], date),
  ]);
  return dayCheckOf({ date, timeZone, rules: await loadRuleBook(db, businessAccountId, settings), visits, staff, practitioners });
}

/** The hard problems a run's plan would add to its day as it is now (Apply's check: `checkPlan`, as the proposal's). */
export async function hardIssuesOfPlan(
  db: DbOrTx, businessAccountId: number, date: string, practitionerIds: readonly number[], planned: ReadonlyMap<number, PlannedVisit>,
): Promise<DayIssue[]> {
  return checkPlan(await loadDayCheck(db, businessAccountId, date, practitionerIds), planned).hardAdded;
}

/** The practitioners whose day a change touches: a visit of theirs moves, or one comes to them or leaves them. */
function touchedPractitioners(now: readonly Placement[], changed: readonly Placement[]): Set<number> {
  const was = new Map(now.map((placement) => [placement.visit.id, placement]));
  return new Set(changed.flatMap((placement) => {
    const old = was.get(placement.visit.id);
    return old && old.practitionerId === placement.practitionerId && old.start.getTime() === placement.start.getTime()
      ? [] : [placement.practitionerId, ...(old ? [old.practitionerId] : [])];
  }));
}

/**
 * Travel between the located visits of these practitioners (before or after the change), from the travel provider
 * every run and the travel warnings measure with; null for any other pair.
 */
async function travelOfDays(provider: TravelProvider, touched: ReadonlySet<number>, placements: readonly Placement[]) {
  const located = [...new Map(placements.filter(({ visit, practitionerId }) => touched.has(practitionerId) && visit.lat !== null && visit.lng !== null)
    .map(({ visit }) => [visit.id, visit])).values()];
  const index = new Map(located.map((visit, k) => [visit.id, k]));
  const matrix = located.length > 1 ? await provider.matrix(located.map((visit) => ({ lat: visit.lat!, lng: visit.lng! }))) : null;
  return (fromId: number, toId: number) => {
    const [from, to] = [index.get(fromId), index.get(toId)];
    return matrix && from !== undefined && to !== undefined ? Math.round(matrix.durations[from * matrix.size + to]) : null;
  };
}

/**
 * The problems the edit would add to its day (hard: refused; soft: shown). Several visits edited at once (the two
 * halves of a two-carer visit moved together) are checked as one change of the first one's day.
 */
export async function issuesAddedByEdit(
  db: DbOrTx, businessAccountId: number, edit: VisitEdit | readonly VisitEdit[], travel?: TravelProvider,
): Promise<AddedIssues> {
  const edits = Array.isArray(edit) ? edit : [edit as VisitEdit];
  const edited: DayVisit[] = [];
  for (const change of edits) {
    const original = await findVisit(db, businessAccountId, change.id);
    if (!original) continue;
    edited.push({
      ...original, practitionerId: change.practitionerId, practitionerName: change.practitionerName ?? original.practitionerName,
      startsAt: change.startsAt, endsAt: change.endsAt, arriveAt: change.arriveAt, agreedStartsAt: change.agreedStartsAt ?? original.agreedStartsAt,
    });
  }
  if (edited.length === 0) return { hard: [], soft: [] };
  const date = dayOf(currentArrival(edited[0]), await businessTimeZone(db, businessAccountId));
  const ids = new Set(edited.map((visit) => visit.id));
  return issuesAddedBy(db, businessAccountId, date, (now) => [...now.filter(({ visit }) => !ids.has(visit.id)), ...asTheyAre(edited)], new Map(), travel);
}

/**
 * refuseHardBreaks for a visit just inserted in the caller's transaction (a booking): the problems it adds to its day
 * as the day was without it.
 */
export async function refuseHardBreaksOfNewVisit(
  db: DbOrTx, businessAccountId: number, id: number, travel?: TravelProvider, options: { partnerFollows?: boolean } = {},
): Promise<RuleWarning[]> {
  const visit = await findVisit(db, businessAccountId, id);
  if (!visit) return [];
  const date = dayOf(currentArrival(visit), await businessTimeZone(db, businessAccountId));
  const added = await issuesAddedBy(db, businessAccountId, date, (now) => now, new Map(), travel, id);
  // The first of a two-carer pair booked together: its partner, booked next in the same transaction, is checked with it.
  const waitingForPartner = (issue: DayIssue) => issue.rule === 'double-handed' && issue.appointmentIds.length === 1 && issue.appointmentIds[0] === id;
  return wordedOrRefused(options.partnerFollows ? { hard: added.hard.filter((issue) => !waitingForPartner(issue)), soft: added.soft } : added);
}

/** A soft problem a change adds, as its answer carries it. */
export interface RuleWarning { rule: DayIssue['rule']; message: string }

/**
 * 409 RULES_BROKEN naming each rule the edit (or edits made together) would break, in words; otherwise the soft
 * problems it adds (the change goes ahead and they are shown). `travel`: the travel provider, to check the travel
 * time and working hours around the change.
 */
export async function refuseHardBreaks(
  db: DbOrTx, businessAccountId: number, edit: VisitEdit | readonly VisitEdit[], travel?: TravelProvider,
): Promise<RuleWarning[]> {
  return wordedOrRefused(await issuesAddedByEdit(db, businessAccountId, edit, travel));
}

function wordedOrRefused(added: AddedIssues): RuleWarning[] {
  if (added.hard.length > 0) throw conflict(`This change would break the rules of home care: ${added.hard.map((issue) => issue.message).join(' ')}`, 'RULES_BROKEN');
  return added.soft.map(({ rule, message }) => ({ rule, message }));
}
