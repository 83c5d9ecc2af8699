// Optimisation runs as the API sees them: starting one for a day (or up to seven), reading it (progress, proposals),
// cancelling it, applying its proposals in one transaction, or discarding them.
import { randomInt } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { AuthContext } from '../../auth/access';
import type { RouteMetrics, RouteStop } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, HttpError, invalid, notFound } from '../../http/errors';
import { cancelJob, enqueueJob, jobEvents, jobsAhead } from '../../jobs/queue';
import { recordVersions, type VersionInput } from '../audit';
import { createSyncJob } from '../sync';
import { loadPractitionerDays } from '../practitioners';
import { queueReplanMessages, tellPractitionersOfReplan, type ReplannedArrival } from '../reminders';
import {
  checkDay, currentArrival, dayBounds, dayVisits, findVisit, hardIssuesOfPlan, listRoutesOfDay, markRoutesStale, replaceRoutes, restoreRoutes,
  savedRoutesOfDay, toRouteDto, updateRoutedVisits, type NewRoute,
} from '../schedule';
import { businessTimeZone } from '../../db/business-time-zone';
import type { DbOrTx } from '../../db/client';
import { rosterOfDay } from './day';
import { datesOf, type RunProgress } from './job';
import type { OptimizationMode, Reader } from './problem';
import { checkNotPast, fixedUntil, hasStarted, isFixedStart, PAST_DAY, todayIn } from '../optimization-settings';
import type { Proposal, VisitFingerprint } from './proposal';
import {
  ownPractitionerIds, practitionerNames, practitionersWithVisits, writtenVisits, type WrittenVisit,
} from './repository';
import {
  findRun, insertRun, lockBusinessForRuns, markRunApplied, markRunDiscarded, markRunUndone, unfinishedRuns, waitingRunCount,
  type AppliedChanges, type RunDay, type RunRow,
} from './runs-repository';
import { optimizationSettingsOf } from '../optimization-settings';
import { longDate } from '../../lib/long-date';
import { continuityOf } from './week';

export type OptimizationDto = Schemas['Optimization'];
export const SCHEDULE_CHANGED = 'The schedule changed since this proposal was made. Run the optimisation again.';
/** Runs of one business that may wait for a worker at once: one business cannot fill the queue with searches. */
export const MAX_WAITING_RUNS = 3;
/** A run plans at most a week: its last day is at most this many days after its first. */
export const MAX_EXTRA_DAYS = 6;

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** A run as the API answers it; `runsAhead` is how many runs start before it while it waits (jobs/queue.ts's jobsAhead). */
export function toOptimizationDto(run: RunRow, runsAhead: number | null = null): OptimizationDto {
  // A run's proposals and what became of them are shown once it is complete.
  const days = run.status === 'COMPLETE' ? run.days : null;
  return {
    id: run.id,
    status: run.status,
    date: run.first_date,
    end_date: run.last_date,
    mode: run.mode,
    practitioner_ids: run.practitioner_ids,
    progress: (run.progress as RunProgress | null) ?? null,
    proposal: (days ? days[0].proposal : null) as OptimizationDto['proposal'],
    days: (days ? days.map((day) => day.proposal) : null) as OptimizationDto['days'],
    error_message: run.error_message,
    created_at: run.created_at.toISOString(),
    created_by_name: run.created_by_name,
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    applied_at: days ? iso(run.applied_at) : null,
    applied_by_name: days ? run.applied_by_name : null,
    discarded_at: days ? iso(run.discarded_at) : null,
    undone_at: days ? iso(run.undone_at) : null,
    undone_by_name: days ? run.undone_by_name : null,
    seed: seedOf(run),
    plan_number: run.plan_number,
    runs_ahead: run.status === 'PENDING' ? runsAhead : null,
    continuity: run.status === 'COMPLETE' && run.days ? continuityOf(run.days) : null,
  };
}

/** A run as the API answers it, with its place in the queue while it waits. */
export async function optimizationDtoOf(ctx: AppContext, run: RunRow): Promise<OptimizationDto> {
  return toOptimizationDto(run, run.status === 'PENDING' ? await jobsAhead(ctx.db, run.id) : null);
}

export interface CreateOptimization {
  date: string;
  end_date?: string;
  practitioner_ids?: number[];
  mode?: OptimizationMode;
  /** The search's seed; absent: a new one. */
  seed?: number;
}

/** Who reads a run's problems: an administrator fixes practitioners' settings, anyone else is told who can. */
export const readerOf = (auth: Pick<AuthContext, 'role'>): Reader => (auth.role === 'ADMIN' ? 'admin' : 'staff');

/** The seed a run searches with: its own, else (a run made before seeds were kept) its id, as it did then. */
export const seedOf = (run: Pick<RunRow, 'id' | 'seed'>): number => run.seed ?? run.id;

/** A new run's seed: four digits, easy to read out and to type ("Plan 2 of this day · seed 4821"). */
const newSeed = () => randomInt(1000, 10_000);

/** Refuses (422, in words) a last day before the first or more than MAX_EXTRA_DAYS after it. */
function checkLastDay(first: string, last: string): void {
  checkDay(last, 'end_date');
  const extra = Temporal.PlainDate.from(first).until(last).days;
  if (extra < 0) throw invalid(`end_date: the last day (${longDate(last)}) is before the first (${longDate(first)}).`);
  if (extra > MAX_EXTRA_DAYS) {
    throw invalid(`end_date: a run plans at most ${MAX_EXTRA_DAYS + 1} days; ${longDate(last)} is ${extra} days after ${longDate(first)}.`);
  }
}

/**
 * Starts a run: checks the days (the first not before today, the last at most MAX_EXTRA_DAYS after it) and the
 * practitioners (each must be the business's; on each day they have visits, with a start place; a day they do not
 * work is skipped for them, see rosterOfDay), refuses while another
 * unfinished run of any of the days shares a practitioner or while the business already has MAX_WAITING_RUNS runs
 * waiting, and queues the job.
 */
export async function createOptimization(ctx: AppContext, auth: AuthContext, body: CreateOptimization): Promise<RunRow> {
  const { db } = ctx;
  const business = auth.businessAccountId;
  checkDay(body.date);
  const timeZone = await businessTimeZone(db, business);
  checkNotPast(body.date, timeZone);
  const lastDate = body.end_date ?? body.date;
  checkLastDay(body.date, lastDate);
  const dates = datesOf(body.date, lastDate);
  const mode = body.mode ?? 'keep_practitioners';
  const settings = await optimizationSettingsOf(db, business);
  if (mode === 'reassign' && !settings.allow_reassignment) {
    throw invalid('mode: reassigning visits between practitioners is turned off in Settings → Optimisation settings.');
  }
  let practitionerIds: number[];
  if (body.practitioner_ids) {
    practitionerIds = [...new Set(body.practitioner_ids)];
    const own = await ownPractitionerIds(db, business, practitionerIds);
    if (practitionerIds.some((id) => !own.has(id))) throw notFound('Practitioner');
  } else {
    practitionerIds = await practitionersWithVisits(db, business, { from: dayBounds(body.date, timeZone).from, to: dayBounds(lastDate, timeZone).to });
    if (practitionerIds.length === 0) {
      throw invalid(`practitioner_ids: no active practitioner has visits ${dates.length > 1 ? `from ${longDate(body.date)} to ${longDate(lastDate)}` : `on ${longDate(body.date)}`}; choose the practitioners.`);
    }
  }
  // Only the practitioners' days are checked here, each day for who works it (rosterOfDay); the run reads the visits
  // when it starts.
  const problems: string[] = [];
  for (const date of dates) {
    const booked = new Set((await dayVisits(db, business, practitionerIds, dayBounds(date, timeZone))).map((visit) => visit.practitionerId));
    const { problems: ofDay } = rosterOfDay(await loadPractitionerDays(db, business, practitionerIds, date), booked, mode, readerOf(auth));
    problems.push(...ofDay.filter((problem) => !problems.includes(problem)));
  }
  if (problems.length) throw invalid(`practitioner_ids: ${problems.join(' ')}`, problems.map((problem) => `practitioner_ids: ${problem}`));

  const run = await db.transaction(async (tx) => {
    await lockBusinessForRuns(tx, business);
    if (await waitingRunCount(tx, business) >= MAX_WAITING_RUNS) {
      throw new HttpError(429, `${MAX_WAITING_RUNS} optimisations of this business are already waiting to start. `
        + 'Wait for one to finish, or cancel one, before starting another.', 'OPTIMIZATIONS_QUEUED');
    }
    const wanted = new Set(practitionerIds);
    const clash = (await unfinishedRuns(tx, business, body.date, lastDate)).find((other) => other.practitioner_ids.some((id) => wanted.has(id)));
    if (clash) {
      const shared = clash.practitioner_ids.filter((id) => wanted.has(id));
      const names = await practitionerNames(tx, business, shared);
      throw conflict(`An optimisation of ${longDate(clash.first_date)}${clash.last_date !== clash.first_date ? ` to ${longDate(clash.last_date)}` : ''} for ${shared.map((id) => names.get(id) ?? `practitioner #${id}`).join(', ')} `
        + `has not finished yet (#${clash.id}). Wait for it to finish, or cancel it, before starting another.`, 'OPTIMIZATION_RUNNING');
    }
    const job = await enqueueJob(tx, { businessAccountId: business, kind: 'OPTIMIZE', createdByUserId: auth.userId, createdByName: auth.fullName, maxAttempts: 2 });
    await insertRun(tx, business, job.id, { firstDate: body.date, lastDate, mode, practitionerIds, seed: body.seed ?? newSeed() });
    return (await findRun(tx, business, job.id))!;
  });
  // enqueueJob announced the job inside the transaction; announce it again now that a worker can see it.
  jobEvents.emit('enqueued', run.id);
  return run;
}

/** Whether the caller may see the run: an ADMIN every run of the business, anyone else the runs they started. */
const mayRead = (auth: AuthContext, run: RunRow) => auth.role === 'ADMIN' || (run.created_by_user_id !== null && run.created_by_user_id === auth.userId);

export async function findVisibleOptimization(ctx: AppContext, auth: AuthContext, id: number): Promise<RunRow> {
  const run = await findRun(ctx.db, auth.businessAccountId, id);
  if (!run || !mayRead(auth, run)) throw notFound('Optimisation');
  return run;
}

export async function cancelOptimization(ctx: AppContext, auth: AuthContext, id: number): Promise<RunRow> {
  const run = await findVisibleOptimization(ctx, auth, id);
  const cancelled = await cancelJob(ctx.db, run.id);
  if (!cancelled) throw conflict(`The optimisation has already finished (${run.status}).`);
  return (await findRun(ctx.db, auth.businessAccountId, run.id))!;
}

/** A COMPLETE run and its days, locked for the rest of the transaction; 409 when it cannot be applied or discarded. */
async function lockProposal(tx: AppContext['db'], auth: AuthContext, id: number): Promise<{ run: RunRow; days: RunDay[] }> {
  const run = await findRun(tx, auth.businessAccountId, id, true);
  if (!run || !mayRead(auth, run)) throw notFound('Optimisation');
  if (run.status !== 'COMPLETE' || !run.days) {
    throw conflict(run.status === 'PENDING' || run.status === 'INPROGRESS'
      ? 'The optimisation has not finished yet; its proposal can be applied once it is complete.'
      : `The optimisation ended without a proposal (${run.status}).`, 'OPTIMIZATION_NOT_COMPLETE');
  }
  if (run.undone_at) {
    throw conflict(`This proposal was applied and then undone (by ${run.undone_by_name}): run the optimisation again for a new proposal.`, 'OPTIMIZATION_UNDONE');
  }
  if (run.applied_at) throw conflict(`This proposal has already been applied (by ${run.applied_by_name}).`, 'OPTIMIZATION_APPLIED');
  if (run.discarded_at) throw conflict('This proposal was discarded. Run the optimisation again.', 'OPTIMIZATION_DISCARDED');
  return { run, days: run.days };
}

const sameVisit = (a: VisitFingerprint, b: VisitFingerprint) =>
  a.updated_at === b.updated_at && a.starts_at === b.starts_at && a.ends_at === b.ends_at && a.practitioner_id === b.practitioner_id
  && a.arrive_at === b.arrive_at && a.cancelled_at === b.cancelled_at && a.arrival_locked === b.arrival_locked;

function newRoutesOf(proposal: Proposal): NewRoute[] {
  return proposal.lanes.filter((lane) => lane.after.stops.length > 0).map((lane): NewRoute => {
    const { after } = lane;
    const stops: RouteStop[] = after.stops.map((stop) => ({
      appointment_id: stop.appointment_id, arrive_at: stop.arrive_at, travel_seconds: stop.travel_seconds, travel_metres: stop.travel_metres,
      reach_at: stop.reach_at, depart_at: stop.depart_at, waiting_seconds: stop.waiting_seconds, lateness_seconds: stop.lateness_seconds,
    }));
    const metrics: RouteMetrics = {
      travel_seconds: after.metrics.travel_seconds, travel_metres: after.metrics.travel_metres, idle_seconds: after.metrics.idle_seconds,
      overtime_seconds: after.metrics.overtime_seconds, late_visits: after.metrics.outside_availability,
      depart_at: after.depart_at!, end_at: after.end_at!, break: after.break,
    };
    return { practitionerId: lane.practitioner_id, startPlace: lane.start_place, endPlace: lane.end_place, stops, returnLeg: after.return_leg, metrics };
  });
}

/**
 * Applies a run's proposals, all or nothing: for each day in turn, checks that every visit of the run's practitioners
 * that day is as it was when the proposal was made (none changed, none added or cancelled), then writes the routes,
 * the visits' routes, arrival times and practitioners, a change-log entry per changed visit; then marks the run
 * applied. When any day refuses, nothing is written, and a run of several days names the day in the 409. With
 * `notifyClients`, the clients whose arrival moves enough are told the new time (../reminders' re-plan messages).
 */
export async function applyOptimization(ctx: AppContext, auth: AuthContext, id: number, { notifyClients = false } = {}) {
  const business = auth.businessAccountId;
  let clientsTold = 0;
  const arrivals: ReplannedArrival[] = [];
  const applied = await ctx.db.transaction(async (tx) => {
    const { run, days } = await lockProposal(tx, auth, id);
    const undo: AppliedChanges = { visits: [], written: [], routes: [] };
    for (const day of days) {
      try {
        const changes = await applyDay(tx, auth, run, day);
        undo.visits.push(...changes.visits);
        undo.written.push(...changes.written);
        undo.routes.push(...changes.routes);
        arrivals.push(...changes.arrivals);
      } catch (error) {
        if (days.length > 1 && error instanceof HttpError) {
          throw new HttpError(error.statusCode, `${longDate(day.proposal.date)}: ${error.message}`, error.code, error.errors);
        }
        throw error;
      }
    }
    if (notifyClients) clientsTold = await queueReplanMessages(tx, business, arrivals, { userId: auth.userId, name: auth.fullName });
    await markRunApplied(tx, run.id, { at: new Date(), userId: auth.userId, name: auth.fullName, undo });
    return (await findRun(tx, business, run.id))!;
  });
  // Once committed: a practitioner whose day gained or lost visits is told by e-mail (the phone shows it too).
  await tellPractitionersOfReplan(ctx, business, arrivals, auth.fullName);
  return { optimization: toOptimizationDto(applied), routes: await routesOfRun(ctx.db, business, applied, applied.id), clients_told: clientsTold };
}

/** The routes of the run's days: those the run wrote (`jobId`), or every route of its practitioners those days. */
async function routesOfRun(db: DbOrTx, business: number, run: RunRow, jobId: number | null) {
  const rows = [];
  for (const date of datesOf(run.first_date, run.last_date)) {
    const ofDay = await listRoutesOfDay(db, business, date, jobId === null ? run.practitioner_ids : null);
    rows.push(...(jobId === null ? ofDay : ofDay.filter((route) => route.optimization_job_id === jobId)));
  }
  return rows.map(toRouteDto);
}

/** Applies one day of a run (see applyOptimization) and answers what Undo needs of it, and each visit's arrival before → after. */
async function applyDay(tx: DbOrTx, auth: AuthContext, run: RunRow, day: RunDay): Promise<AppliedChanges & { arrivals: ReplannedArrival[] }> {
  const business = auth.businessAccountId;
  const { proposal, fingerprints } = day;
  const { date } = proposal;
  const practitionerIds = run.practitioner_ids;
  const timeZone = await businessTimeZone(tx, business);
  const current = await dayVisits(tx, business, practitionerIds, dayBounds(date, timeZone), true);
  const wasThen = new Map(fingerprints.map((print) => [print.appointment_id, print]));
  const unchanged = current.length === fingerprints.length && current.every((visit) => {
    const then = wasThen.get(visit.id);
    return then !== undefined && sameVisit(then, {
      appointment_id: visit.id, updated_at: visit.updatedAt.toISOString(), starts_at: visit.startsAt.toISOString(), ends_at: visit.endsAt.toISOString(),
      practitioner_id: visit.practitionerId, arrive_at: visit.arriveAt?.toISOString() ?? null, cancelled_at: null, arrival_locked: visit.arrivalLocked,
    });
  });
  if (date < todayIn(timeZone)) throw conflict(`${PAST_DAY} This proposal can no longer be applied.`, 'DAY_PASSED');
  if (!unchanged) throw conflict(SCHEDULE_CHANGED, 'SCHEDULE_CHANGED');

  const now = new Date();
  const visitIds = current.map((visit) => visit.id);
  const visitsBefore = (await writtenVisits(tx, business, visitIds))
    .map(({ id, arrive_at, practitioner_id, route_id }) => ({ id, arrive_at, practitioner_id, route_id }));
  // A practitioner the day did not route (no working hours that day) keeps their route as it is.
  const notRouted = new Set((proposal.not_routed ?? []).map((practitioner) => practitioner.practitioner_id));
  const routedIds = practitionerIds.filter((practitionerId) => !notRouted.has(practitionerId));
  const routesBefore = await savedRoutesOfDay(tx, business, date, routedIds);
  const routeIds = await replaceRoutes(tx, business, date, routedIds, newRoutesOf(proposal), { jobId: run.id, userId: auth.userId, name: auth.fullName });
  const before = new Map(current.map((visit) => [visit.id, visit]));
  const updates = proposal.lanes.flatMap((lane) => lane.after.stops.map((stop) => ({
    id: stop.appointment_id, routeId: routeIds.get(lane.practitioner_id)!, arriveAt: stop.arrive_at, practitionerId: lane.practitioner_id,
  })));
  // A visit the proposal moves that has started (or is about to) since it was made: the plan is no longer possible.
  const settings = await optimizationSettingsOf(tx, business);
  const until = fixedUntil(settings, now.getTime());
  const startedSince = updates.find((update) => {
    const visit = before.get(update.id)!;
    const moves = visit.practitionerId !== update.practitionerId || currentArrival(visit).getTime() !== Date.parse(update.arriveAt);
    return moves && (hasStarted(visit) || isFixedStart(currentArrival(visit), until) || Date.parse(update.arriveAt) <= until);
  });
  if (startedSince) {
    const name = before.get(startedSince.id)!.clientName;
    throw conflict(`${name ? `${name}'s visit` : 'A visit'} has started or starts within ${settings.fixed_before_minutes} minutes `
      + 'since this proposal was made, and the proposal moves it. Run the optimisation again.', 'VISIT_STARTED');
  }
  await refuseNewHardIssues(tx, business, date, practitionerIds, updates);
  await updateRoutedVisits(tx, business, updates);
  // "Optimisation of 9 Dec by Alex Morgan": the log says which day's optimisation made the change, and who applied it.
  const reason = `Optimisation of ${Temporal.PlainDate.from(date).toLocaleString('en-AU', { day: 'numeric', month: 'short' })} by ${auth.fullName}`;
  const routeBefore = new Map(visitsBefore.map((visit) => [visit.id, visit.route_id]));
  const versions: VersionInput[] = updates.flatMap((update) => {
    const visit = before.get(update.id)!;
    const changes: VersionInput['changes'] = {};
    if (visit.practitionerId !== update.practitionerId) changes.practitioner_id = [visit.practitionerId, update.practitionerId];
    if (visit.arriveAt?.toISOString() !== update.arriveAt) changes.arrive_at = [visit.arriveAt, update.arriveAt];
    // Put on a route (or onto another) at the same time and with the same practitioner is a change the log says too.
    if ((routeBefore.get(update.id) ?? null) !== update.routeId) changes.route_id = [routeBefore.get(update.id) ?? null, update.routeId];
    return Object.keys(changes).length
      ? [{ businessAccountId: business, itemType: 'Appointment' as const, itemId: update.id, event: 'update' as const, whodunnit: auth.fullName, changes, reason }]
      : [];
  });
  await recordVersions(tx, versions);
  const arrivals = updates.map((update): ReplannedArrival => {
    const visit = before.get(update.id)!;
    return {
      appointmentId: update.id, clientId: visit.clientId, before: currentArrival(visit), after: new Date(update.arriveAt), day: date,
      practitionerBefore: visit.practitionerId, practitionerAfter: update.practitionerId,
    };
  });
  return { visits: visitsBefore, written: await writtenVisits(tx, business, visitIds), routes: routesBefore, arrivals };
}

/**
 * Refuses (409 RULES_BROKEN, in words) a proposal that would now break a hard rule the day does not already break:
 * the day may have changed outside the run's practitioners since it was made (a client's visit with someone else).
 * The same check (`checkPlan`) on the same kind of day as the proposal's, so an unchanged day never refuses it.
 */
async function refuseNewHardIssues(
  tx: DbOrTx, business: number, date: string, practitionerIds: readonly number[], updates: { id: number; arriveAt: string; practitionerId: number }[],
) {
  const planned = new Map(updates.map((update) => [update.id, { practitionerId: update.practitionerId, start: new Date(update.arriveAt) }]));
  const broken = await hardIssuesOfPlan(tx, business, date, practitionerIds, planned);
  if (broken.length > 0) {
    throw conflict(`The day has changed since this proposal was made, and applying it now would break the rules: ${broken.map((issue) => issue.message).join(' ')} Run the optimisation again.`, 'RULES_BROKEN');
  }
}

export async function discardOptimization(ctx: AppContext, auth: AuthContext, id: number): Promise<RunRow> {
  return ctx.db.transaction(async (tx) => {
    const { run } = await lockProposal(tx, auth, id);
    await markRunDiscarded(tx, run.id, { at: new Date(), name: auth.fullName });
    return (await findRun(tx, auth.businessAccountId, run.id))!;
  });
}

const sameWritten = (a: WrittenVisit, b: WrittenVisit) =>
  a.updated_at === b.updated_at && a.starts_at === b.starts_at && a.ends_at === b.ends_at && a.practitioner_id === b.practitioner_id
  && a.arrive_at === b.arrive_at && a.route_id === b.route_id && a.cancelled_at === b.cancelled_at && a.arrival_locked === b.arrival_locked;

/**
 * A visit whose only change since Apply is an export's write-back (ADR 0023): the PMS's one start field took the planned
 * arrival, so its start (and end) moved to that arrival with its length kept, and nothing else changed. Nobody edited it.
 */
const onlyExported = (then: WrittenVisit, now: WrittenVisit) =>
  then.arrive_at !== null && now.starts_at === then.arrive_at && now.starts_at !== then.starts_at
  && Date.parse(now.ends_at) - Date.parse(now.starts_at) === Date.parse(then.ends_at) - Date.parse(then.starts_at)
  && now.practitioner_id === then.practitioner_id && now.arrive_at === then.arrive_at && now.route_id === then.route_id
  && now.cancelled_at === then.cancelled_at && now.arrival_locked === then.arrival_locked;

/** Names at most three visits by client and time ("Dorothy Ryan's visit (13:05)"), then "and N more". */
async function nameVisits(tx: DbOrTx, business: number, ids: readonly number[], timeZone: string): Promise<string> {
  const named = await Promise.all(ids.slice(0, 3).map(async (id) => {
    const visit = await findVisit(tx, business, id);
    if (!visit) return 'A visit that has since been deleted';
    const time = Temporal.Instant.fromEpochMilliseconds(currentArrival(visit).getTime()).toZonedDateTimeISO(timeZone)
      .toPlainTime().toString({ smallestUnit: 'minute' });
    return `${visit.clientName ? `${visit.clientName}'s visit` : 'A visit'} (${time})`;
  }));
  const more = ids.length - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more` : named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
}

/**
 * Undoes an applied proposal, all or nothing, while none of its visits changed since Apply (else 409 naming them):
 * each visit's arrival, practitioner and route back as they were, the run's routes removed and the routes they
 * replaced restored, a change-log entry per changed visit ("Undone by {name}"), and the run marked undone.
 */
export async function undoOptimization(ctx: AppContext, auth: AuthContext, id: number) {
  const business = auth.businessAccountId;
  const undone = await ctx.db.transaction(async (tx) => {
    const run = await findRun(tx, business, id, true);
    if (!run || !mayRead(auth, run)) throw notFound('Optimisation');
    if (!run.applied_at) throw conflict('This optimisation was not applied, so there is nothing to undo.', 'OPTIMIZATION_NOT_APPLIED');
    if (run.undone_at) throw conflict(`This optimisation has already been undone (by ${run.undone_by_name}).`, 'OPTIMIZATION_UNDONE');
    if (!run.undo) throw conflict('This optimisation was applied before it could be undone, so it cannot be undone.', 'OPTIMIZATION_NOT_UNDOABLE');
    const { visits, written, routes } = run.undo;
    const timeZone = await businessTimeZone(tx, business);
    const now = new Map((await writtenVisits(tx, business, visits.map((visit) => visit.id))).map((visit) => [visit.id, visit]));
    // Visits exported since Apply were not edited: Undo restores them too, and exports the restored times (below).
    const exported = new Map(written.filter((then) => {
      const visit = now.get(then.id);
      return visit !== undefined && onlyExported(then, visit);
    }).map((then) => [then.id, then]));
    const changed = written.filter((then) => {
      const visit = now.get(then.id);
      return !visit || (!sameWritten(then, visit) && !exported.has(then.id));
    }).map((visit) => visit.id);
    if (changed.length) {
      throw conflict(`${await nameVisits(tx, business, changed, timeZone)} ${changed.length > 1 ? 'have' : 'has'} changed since this optimisation was applied: it cannot be undone.`, 'VISITS_CHANGED');
    }

    const staleSince = await restoreRoutes(tx, business, run.id, routes);
    // The run's routes had been marked stale (the day changed around its visits): the restored ones are no truer.
    await markRoutesStale(tx, business, staleSince.map(({ practitionerId, day }) => ({ practitionerId, at: dayBounds(day, timeZone).from })));
    // An exported visit's start is the planned arrival now: its arrival before Apply (else its start then) is restored
    // as its arrival, which the export below writes back to the PMS.
    const restoredArrival = (visit: AppliedChanges['visits'][number]) => visit.arrive_at ?? exported.get(visit.id)?.starts_at ?? null;
    await updateRoutedVisits(tx, business, visits.map((visit) => ({
      id: visit.id, routeId: visit.route_id, arriveAt: restoredArrival(visit), practitionerId: visit.practitioner_id,
    })));
    const reason = `Undone by ${auth.fullName}`;
    const versions: VersionInput[] = visits.flatMap((before) => {
      const after = now.get(before.id)!;
      const changes: VersionInput['changes'] = {};
      if (after.practitioner_id !== before.practitioner_id) changes.practitioner_id = [after.practitioner_id, before.practitioner_id];
      if (after.arrive_at !== restoredArrival(before)) changes.arrive_at = [after.arrive_at, restoredArrival(before)];
      return Object.keys(changes).length
        ? [{ businessAccountId: business, itemType: 'Appointment' as const, itemId: before.id, event: 'update' as const, whodunnit: auth.fullName, changes, reason }]
        : [];
    });
    await recordVersions(tx, versions);
    await markRunUndone(tx, run.id, { at: new Date(), name: auth.fullName });
    return { run: (await findRun(tx, business, run.id))!, exported: exported.size };
  });
  // The PMS has the applied times of the visits exported since Apply: an export of the run's days writes the restored
  // ones (it writes only what differs from what the PMS has). Said in the answer; a refused export is said too.
  let exportNote: Schemas['UndoExport'] | null = null;
  if (undone.exported > 0) {
    const visitsText = `${undone.exported} visit${undone.exported === 1 ? '' : 's'}`;
    try {
      const job = await createSyncJob(ctx, auth, 'EXPORT', { start_date: undone.run.first_date, end_date: undone.run.last_date });
      exportNote = { export_id: job.id, message: `The applied times of ${visitsText} had been exported; export #${job.id} writes the restored times to the practice management system.` };
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      exportNote = { export_id: null, message: `The applied times of ${visitsText} had been exported; export again to write the restored times to the practice management system (${error.message})` };
    }
  }
  return { optimization: toOptimizationDto(undone.run), routes: await routesOfRun(ctx.db, business, undone.run, null), export: exportNote };
}
