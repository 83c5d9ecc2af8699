// Reads what one run needs about its day — the business's clock and settings (optimisation settings module), the
// practitioners' day (practitioners module), the visits and the clients' usual practitioners — and the travel
// provider every run, its checks and the travel warnings measure with.
import type { DbOrTx } from '../../db/client';
import { optimizationSettingsOf } from '../optimization-settings';
import { loadPractitionerDays, type PractitionerDay } from '../practitioners';
import { type DayCheck, type DayVisit, dayBounds, dayCheckOf, dayStaff, dayVisits, loadRuleBook } from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import { buildDayProblem, routingProblems, type DayData, type DayProblem, type OptimizationMode, type Reader } from './problem';
import { practitionerColors, usualPractitioners } from './repository';
import { longDate } from '../../lib/long-date';

export interface RunChoices {
  date: string;
  practitionerIds: number[];
  mode: OptimizationMode;
  /** A client whose visit joins the run by insertion: their visits with other practitioners bound it as the run's clients' do. */
  joiningClientId?: number | null;
  /**
   * A day of an optimisation run (rosterOfDay): each practitioner is routed only if they work that day, and keeping
   * visits with their practitioner, only if they have visits; problems are worded for this reader.
   */
  roster?: Reader;
}

export interface LoadedDay {
  data: DayData;
  /** What stops practitioners from being routed, in words; the run cannot go ahead while there is any. */
  problems: string[];
  /** The run's practitioners left out because they are on leave all day (reassigning moves their visits). */
  leftOut: PractitionerDay[];
  /** The day the run's plan is checked against, as Apply's check reads it (schedule's loadDayCheck). */
  check: DayCheck;
  /** Every visit of the run's practitioners that day, planned or not (what Apply finds unchanged). */
  runVisits: DayVisit[];
  /** A run's day (`roster`): practitioners with visits who are not routed that day (no working hours); their visits stay as they are. */
  notRouted: PractitionerDay[];
  /** A run's day (`roster`), reassigning: the routed practitioners who had nothing booked that day (whom the plan may call in). */
  callIns: Set<number>;
}


/**
 * Which of a run's practitioners are routed, and what stops the run. A practitioner on leave all day is never
 * routed: keeping visits with their practitioner, that stops the run (naming them); reassigning, they are left out
 * and their visits go to the others (unless every practitioner chosen is on leave).
 */
export function practitionersToRoute<Day extends PractitionerDay>(
  days: readonly Day[], mode: OptimizationMode, reader: Reader = 'admin',
): { routed: Day[]; leftOut: Day[]; problems: string[] } {
  const onLeave = days.filter((day) => day.onLeave);
  const atWork = days.filter((day) => !day.onLeave);
  const leaveProblems = onLeave.map((day) => `${day.name} is on leave on ${longDate(day.date)}${day.onLeave!.reason ? ` (${day.onLeave!.reason})` : ''}: `
    + (mode === 'reassign' ? 'choose practitioners at work to take their visits.' : 'leave them out, or reassign between practitioners to move their visits to the others.'));
  const leaveLeftOut = mode === 'reassign' && atWork.length > 0;
  return {
    routed: leaveLeftOut ? atWork : [...days],
    leftOut: leaveLeftOut ? onLeave : [],
    problems: [...(leaveLeftOut ? [] : leaveProblems), ...atWork.flatMap((day) => routingProblems(day, reader))],
  };
}

/**
 * Who works on a day of an optimisation run (issue 35, weeks that fit real rosters): a practitioner is routed only on
 * the days they work. With nothing booked that day, one without working hours, on leave or otherwise not routable is
 * skipped without a word; so is anyone keeping visits with their practitioner (nothing of theirs to plan), and,
 * reassigning, one who can work is routed as someone the plan may call in (`callIns`). With visits that day, one
 * without working hours is not routed and their visits stay as they are (`notRouted`, said in the proposal); leave
 * and any other problem (no start place, hours that end before they start) still stop the run, in words for `reader`.
 */
export function rosterOfDay<Day extends PractitionerDay>(
  days: readonly Day[], withVisits: ReadonlySet<number>, mode: OptimizationMode, reader: Reader,
): { routed: Day[]; leftOut: Day[]; notRouted: Day[]; callIns: Set<number>; problems: string[] } {
  const notRouted = days.filter((day) => withVisits.has(day.practitionerId) && !day.onLeave && !day.shift);
  const callIns = days.filter((day) => mode === 'reassign' && !withVisits.has(day.practitionerId) && !day.onLeave && routingProblems(day).length === 0);
  const { routed, leftOut, problems } = practitionersToRoute(
    days.filter((day) => (withVisits.has(day.practitionerId) && !notRouted.includes(day)) || callIns.includes(day)), mode, reader,
  );
  return { routed, leftOut, notRouted, callIns: new Set(callIns.map((day) => day.practitionerId)), problems };
}

export async function loadDay(db: DbOrTx, businessAccountId: number, choices: RunChoices): Promise<LoadedDay> {
  const timeZone = await businessTimeZone(db, businessAccountId);
  const bounds = dayBounds(choices.date, timeZone);
  const [settings, days, colors, everyVisit, staff] = await Promise.all([
    optimizationSettingsOf(db, businessAccountId),
    loadPractitionerDays(db, businessAccountId, choices.practitionerIds, choices.date),
    practitionerColors(db, businessAccountId, choices.practitionerIds),
    dayVisits(db, businessAccountId, null, bounds),
    dayStaff(db, businessAccountId, bounds),
  ]);
  const rules = await loadRuleBook(db, businessAccountId, settings);
  const chosen = new Set(choices.practitionerIds);
  const runVisits = everyVisit.filter((visit) => chosen.has(visit.practitionerId));
  const { routed, leftOut, problems, notRouted, callIns } = choices.roster
    ? rosterOfDay(days, new Set(runVisits.map((visit) => visit.practitionerId)), choices.mode, choices.roster)
    : { ...practitionersToRoute(days, choices.mode), notRouted: [], callIns: new Set<number>() };
  const practitioners = routed.map((day) => ({ ...day, color: colors.get(day.practitionerId) ?? '#64748b' }));
  // Practitioners not routed that day keep their visits as they are: outside the run, as anyone else's.
  const inRun = new Set(choices.practitionerIds.filter((id) => !notRouted.some((day) => day.practitionerId === id)));
  const visits = everyVisit.filter((visit) => inRun.has(visit.practitionerId));
  const clientIds = [...new Set(visits.flatMap((visit) => (visit.clientId === null ? [] : [visit.clientId])))];
  const runClients = new Set([...clientIds, ...(choices.joiningClientId == null ? [] : [choices.joiningClientId])]);
  // The run's clients' visits with other practitioners: the plan keeps the client rules around them.
  const otherVisits = everyVisit.filter((visit) => !inRun.has(visit.practitionerId) && visit.clientId !== null && runClients.has(visit.clientId));
  const usual = choices.mode === 'reassign'
    ? await usualPractitioners(db, businessAccountId, clientIds, bounds.from, choices.practitionerIds)
    : new Map<number, number>();
  return {
    data: { date: choices.date, businessTimeZone: timeZone, mode: choices.mode, settings, practitioners, visits, usualPractitioner: usual, rules, otherVisits, staff },
    problems,
    leftOut,
    check: dayCheckOf({ date: choices.date, timeZone, rules, visits: everyVisit, staff, practitioners: days }),
    runVisits,
    notRouted,
    callIns,
  };
}

/**
 * The optimiser's problem for a loaded day whose practitioners can all be routed. A visit kept at its time (Keep this
 * time, about to start, the client not available that day) stays with its practitioner, unless they are left out on
 * leave: then it keeps its time and goes to whoever at work can take it. A visit under way (a step recorded) never
 * changes hands: buildDayProblem leaves it as it is.
 */
export function problemOf(day: LoadedDay): DayProblem {
  const built = buildDayProblem(day.data);
  const away = new Set(day.leftOut.map((practitioner) => String(practitioner.practitionerId)));
  const inRun = new Set(built.practitioners.map((practitioner) => practitioner.practitionerId));
  // Never to a practitioner whose qualifications are unknown, nor to one the client asked not to see.
  const unknown = built.practitioners.filter((practitioner) => practitioner.skills === null).map((practitioner) => practitioner.practitionerId);
  built.problem.visits.forEach((visit, index) => {
    if (visit.pinnedPractitionerId === undefined || !away.has(visit.pinnedPractitionerId)) return;
    delete visit.pinnedPractitionerId;
    const type = built.visits[index].appointmentTypeId;
    if (type !== null) visit.requiredSkill = String(type);
    const excluded = [...new Set([...(built.visits[index].excludedPractitionerIds ?? []).filter((id) => inRun.has(id)), ...unknown])];
    if (excluded.length) visit.excludedPractitionerIds = [...new Set([...(visit.excludedPractitionerIds ?? []), ...excluded.map(String)])];
  });
  return built;
}

