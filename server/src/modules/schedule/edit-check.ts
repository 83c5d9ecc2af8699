// Every change made by hand (an arrival time, a move, an insertion into a route) is held to the same rule book as an
// optimisation: refused when it would break a hard rule the day does not already break.
import type { DbOrTx } from '../../db/client';
import { conflict } from '../../http/errors';
import { optimizationSettingsOf } from '../optimization-settings';
import { newHardIssues, type DayIssue } from './day-check';
import { currentArrival, dayBounds, dayOf, dayStartMs, type DayVisit } from './day-model';
import { businessTimeZone, dayVisits, findVisit } from './day-visits';
import { loadRuleBook } from './rule-book';
import { asTheyAre, issuesOfPlan, type CheckContext, type Placement } from './rule-check';

/** A visit as an edit would leave it. */
export interface VisitEdit {
  id: number;
  practitionerId: number;
  /** The practitioner's name when the edit gives the visit to someone else (for the messages). */
  practitionerName?: string;
  startsAt: Date;
  endsAt: Date;
  arriveAt: Date | null;
}

/**
 * The hard problems `change` would add to a day as it is now (its visits where they are now → where the change puts
 * them). `practitionerNames` names practitioners a visit moves to, for the messages.
 */
export async function hardIssuesAddedBy(
  db: DbOrTx, businessAccountId: number, date: string, change: (now: Placement[]) => Placement[],
  practitionerNames: ReadonlyMap<number, string> = new Map(),
): Promise<DayIssue[]> {
  const timeZone = await businessTimeZone(db, businessAccountId);
  const [visits, settings] = await Promise.all([
    dayVisits(db, businessAccountId, null, dayBounds(date, timeZone)),
    optimizationSettingsOf(db, businessAccountId),
  ]);
  const context: CheckContext = {
    rules: await loadRuleBook(db, businessAccountId, settings), zeroMs: dayStartMs(date, timeZone), timeZone,
    practitioners: new Map([...practitionerNames].map(([id, name]) => [id, { name, timeZone, shift: null }])),
  };
  const now = asTheyAre(visits);
  return newHardIssues(issuesOfPlan(now, context), issuesOfPlan(change(now), context));
}

/** The hard rules the edit would break that its day does not already break. */
export async function newHardIssuesOfEdit(db: DbOrTx, businessAccountId: number, edit: VisitEdit): Promise<DayIssue[]> {
  const original = await findVisit(db, businessAccountId, edit.id);
  if (!original) return [];
  const edited: DayVisit = {
    ...original, practitionerId: edit.practitionerId, practitionerName: edit.practitionerName ?? original.practitionerName,
    startsAt: edit.startsAt, endsAt: edit.endsAt, arriveAt: edit.arriveAt,
  };
  const date = dayOf(currentArrival(edited), await businessTimeZone(db, businessAccountId));
  return hardIssuesAddedBy(db, businessAccountId, date, (now) => [...now.filter(({ visit }) => visit.id !== edit.id), ...asTheyAre([edited])]);
}

/** 409 RULES_BROKEN naming each rule the edit would break, in words. */
export async function refuseHardBreaks(db: DbOrTx, businessAccountId: number, edit: VisitEdit): Promise<void> {
  const broken = await newHardIssuesOfEdit(db, businessAccountId, edit);
  if (broken.length > 0) throw conflict(`This change would break the rules of home care: ${broken.map((issue) => issue.message).join(' ')}`, 'RULES_BROKEN');
}
