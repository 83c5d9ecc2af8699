// Every change made by hand (an arrival time, a move, an insertion into a route) is held to the same rule book as an
// optimisation: refused when it would break a hard rule the day does not already break.
import type { DbOrTx } from '../../db/client';
import { conflict } from '../../http/errors';
import { optimizationSettingsOf } from '../optimization-settings';
import { newHardIssues, type DayIssue } from './day-check';
import { currentArrival, dayBounds, dayOf, dayStartMs, type DayVisit } from './day-model';
import { businessTimeZone, dayVisits, findVisit } from './day-visits';
import { loadRuleBook } from './rule-book';
import { asTheyAre, issuesOfPlan } from './rule-check';

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

/** The hard rules the edit would break that its day does not already break. */
export async function newHardIssuesOfEdit(db: DbOrTx, businessAccountId: number, edit: VisitEdit): Promise<DayIssue[]> {
  const original = await findVisit(db, businessAccountId, edit.id);
  if (!original) return [];
  const timeZone = await businessTimeZone(db, businessAccountId);
  const edited: DayVisit = {
    ...original, practitionerId: edit.practitionerId, practitionerName: edit.practitionerName ?? original.practitionerName,
    startsAt: edit.startsAt, endsAt: edit.endsAt, arriveAt: edit.arriveAt,
  };
  const date = dayOf(currentArrival(edited), timeZone);
  const [visits, settings] = await Promise.all([
    dayVisits(db, businessAccountId, null, dayBounds(date, timeZone)),
    optimizationSettingsOf(db, businessAccountId),
  ]);
  const context = { rules: await loadRuleBook(db, businessAccountId, settings), zeroMs: dayStartMs(date, timeZone), timeZone, practitioners: new Map() };
  const before = asTheyAre(visits);
  const after = asTheyAre([...visits.filter((visit) => visit.id !== edit.id), edited]);
  return newHardIssues(issuesOfPlan(before, context), issuesOfPlan(after, context));
}

/** 409 RULES_BROKEN naming each rule the edit would break, in words. */
export async function refuseHardBreaks(db: DbOrTx, businessAccountId: number, edit: VisitEdit): Promise<void> {
  const broken = await newHardIssuesOfEdit(db, businessAccountId, edit);
  if (broken.length > 0) throw conflict(`This change would break the rules of home care: ${broken.map((issue) => issue.message).join(' ')}`, 'RULES_BROKEN');
}
