// The OPTIMIZE job: for each day of the run in turn (one, or up to seven), builds the day's problem, solves it in the
// optimiser's worker thread (the event loop stays free for the API), reports progress into jobs.progress through
// the job's guard, stops when the run is cancelled, and stores the days' proposals in the run's record (each day as
// it is planned, so a run that gives way to another business's between days goes on from them).
import { Temporal } from 'temporal-polyfill';
import { JobInterrupted, saveJobProgress } from '../../jobs/queue';
import { JobFailedError, type JobHandlers, type JobRun } from '../../jobs/types';
import {
  checkSolution, claimSearches, meanWorkingSeconds, planOf, solveInWorker, travelMatrixFor, type Problem, type Progress, type Solution, type StartRoute, type TravelMatrix,
} from '../../optimizer';
import { hardIssuesAdded, travelProviderFor } from '../schedule';
import { loadDay, problemOf } from './day';
import { planAsItIs, type OptimizationMode, type Reader } from './problem';
import { buildProposal, fingerprintOf, proposalWithinTheRules, workingSeconds } from './proposal';
import { appointmentTypeNames, practitionerProfessions, roleOfUser } from './repository';
import { findRun, saveRunDays, type RunDay } from './runs-repository';
import { fixedUntil } from '../optimization-settings';
import { searchTimeMs } from '../optimization-settings';
import { optimiserRuns } from '../../operations/metrics';
import { longDate } from '../../lib/long-date';
import { calledInBelowThreshold, calledInOf, carersOfDay, emptyDayProposal, notRoutedOf } from './week';

/** What a run stores in jobs.progress while it solves. */
export interface RunProgress {
  elapsed_ms: number;
  /** Travel of the best plan found so far (seconds); null before the search starts. */
  best_travel_seconds: number | null;
  /** 0..1 of the search time used (of the whole run, over every day). */
  fraction: number;
  /** A run of more than one day: which day it is on (1-based), of how many, and its date. */
  day_index?: number;
  day_count?: number;
  date?: string;
  /** Searches running side by side for this run (what was free of the instance's OPTIMIZER_THREADS, at least one). */
  searches?: number;
}

/** The dates from `first` to `last`, both included. */
export function datesOf(first: string, last: string): string[] {
  const dates: string[] = [];
  for (let day = Temporal.PlainDate.from(first); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) dates.push(day.toString());
  return dates;
}

/** Which day of the run is being solved; progress is reported within the whole run. */
interface DayOfRun { index: number; count: number; date: string }

/** Least time between two progress writes. */
const PROGRESS_EVERY_MS = 300;

async function writeProgress(run: JobRun, at: DayOfRun, progress: RunProgress): Promise<void> {
  // A run of one day reports as it always has; a longer one says which day it is on, and its fraction is the run's.
  const report: RunProgress = at.count === 1 ? progress : {
    ...progress, fraction: Math.round(((at.index + progress.fraction) / at.count) * 1000) / 1000,
    day_index: at.index + 1, day_count: at.count, date: at.date,
  };
  await run.ctx.db.transaction(async (tx) => {
    await run.guard(tx);
    await saveJobProgress(tx, run.job.id, { ...report });
  });
}


const emptySolution = (): Solution => ({
  routes: [], unassigned: [],
  objective: { total: 0, travelCost: 0, travelTime: 0, travelDistance: 0, continuity: 0, lateness: 0, overtime: 0, balance: 0, moved: 0, unassigned: 0 },
  stats: { iterations: 0, elapsedMs: 0, seed: 1, stoppedBy: 'iterations' },
});

/** Plans the run's days and stores their proposals in its record (in a transaction through the job's guard). */
export async function runOptimization(run: JobRun): Promise<void> {
  try {
    const days = await optimizeDays(run);
    await run.ctx.db.transaction(async (tx) => {
      await run.guard(tx);
      await saveRunDays(tx, run.job.id, days);
    });
    optimiserRuns.inc({ outcome: 'proposal' });
  } catch (error) {
    optimiserRuns.inc({ outcome: run.signal.aborted ? 'interrupted' : 'failed' });
    throw error;
  }
}

/**
 * Solves each day of the run in turn, each with the whole search budget and the same rounds. Reassigning, continuity
 * holds across the days: a client's visits on a later day prefer the practitioner the plan gave them on their latest
 * earlier day of the run (over the one their booked visits had). With balance on, so does balance: each day is
 * planned knowing the working time the run gave each practitioner on the days before it.
 *
 * Each day is stored in the run's record as it is planned. Between days the run gives its slot to another business's
 * run that waits (the queue takes it again in its turn), and goes on from the days stored: a week's run never holds
 * the search slot of every business for minutes.
 */
async function optimizeDays(run: JobRun): Promise<RunDay[]> {
  const { job } = run;
  const asked = await findRun(run.ctx.db, job.business_account_id, job.id);
  if (!asked) throw new JobFailedError('This optimisation has no record of what to plan. Run the optimisation again.');
  const { mode, practitioner_ids: practitionerIds } = asked;
  // The run's seed (a run made before seeds were kept: its id, as it searched then).
  const seed = asked.seed ?? asked.id;
  const dates = datesOf(asked.first_date, asked.last_date);
  // Problems are worded for whoever started the run (only an administrator can fix a practitioner's settings).
  const reader = await roleOfUser(run.ctx.db, job.business_account_id, asked.created_by_user_id) === 'ADMIN' ? 'admin' as const : 'staff' as const;
  // Client → the practitioners the plan gave them on the run's earlier days, the latest first (continuity).
  const planned = new Map<number, number[]>();
  const workedBefore = new Map<number, number>();
  const days: RunDay[] = [];
  const carry = (day: RunDay) => {
    days.push(day);
    for (const lane of day.proposal.lanes) {
      workedBefore.set(lane.practitioner_id, (workedBefore.get(lane.practitioner_id) ?? 0) + (workingSeconds(lane.after) ?? 0));
    }
    for (const [clientId, practitionerId] of day.planned_clients ?? []) {
      planned.set(clientId, [practitionerId, ...(planned.get(clientId) ?? []).filter((id) => id !== practitionerId)]);
    }
  };
  for (const day of (asked.days ?? []).slice(0, dates.length - 1)) carry(day);
  for (let index = days.length; index < dates.length; index++) {
    if (index > 0) await run.giveWayIfOthersWait();
    const day = await optimizeDay(run, { index, count: dates.length, date: dates[index] }, { mode, practitionerIds, reader, seed }, { usualPlanned: planned, workedBefore });
    const plannedClients = mode !== 'reassign' ? [] : day.proposal.lanes.flatMap((lane) => lane.after.stops.flatMap((stop) => {
      const clientId = day.clientOf.get(stop.appointment_id);
      return clientId == null ? [] : [[clientId, lane.practitioner_id] as [number, number]];
    }));
    carry({ proposal: day.proposal, fingerprints: day.fingerprints, planned_clients: plannedClients, carers: day.carers });
    if (index < dates.length - 1) {
      await run.ctx.db.transaction(async (tx) => {
        await run.guard(tx);
        await saveRunDays(tx, job.id, days);
      });
    }
  }
  return days.map(({ planned_clients: _planned, ...day }) => day);
}

/**
 * One day of a run: its problem, the search and the rounds that keep it to the rules. What the run planned on its
 * earlier days: `usualPlanned`, client → their practitioner then, who counts as their usual practitioner;
 * `workedBefore`, practitioner → working seconds then.
 */
async function optimizeDay(
  run: JobRun, at: DayOfRun,
  { mode, practitionerIds, reader, seed }: { mode: OptimizationMode; practitionerIds: number[]; reader: Reader; seed: number },
  { usualPlanned, workedBefore }: { usualPlanned: ReadonlyMap<number, readonly number[]>; workedBefore: ReadonlyMap<number, number> },
): Promise<RunDay & { clientOf: Map<number, number | null> }> {
  const { ctx, job } = run;
  const { date } = at;
  // Each practitioner is routed only if they work that day (rosterOfDay): a day they do not is skipped for them.
  const day = await loadDay(ctx.db, job.business_account_id, { date, practitionerIds, mode, roster: reader });
  if (day.problems.length) {
    throw new JobFailedError(`The optimisation cannot run${at.count > 1 ? ` on ${longDate(date)}` : ''}: ${day.problems.join(' ')}`);
  }
  const notRouted = notRoutedOf(day.notRouted, day.runVisits, date, reader);
  const fingerprints = day.runVisits.map(fingerprintOf);
  if (day.data.visits.length === 0 || day.data.practitioners.length === 0) {
    const proposal = emptyDayProposal({
      date, timeZone: day.data.businessTimeZone, mode, travelName: travelProviderFor(ctx.config).name, nobodyWorks: day.runVisits.length > 0, notRouted,
    });
    await writeProgress(run, at, { elapsed_ms: 0, best_travel_seconds: 0, fraction: 1 });
    return { proposal, fingerprints, clientOf: new Map(), carers: carersOfDay(day.runVisits, proposal) };
  }
  const inRun = new Set(day.data.practitioners.map((practitioner) => practitioner.practitionerId));
  // Continuity across the run: the practitioner the run's latest earlier day gave the client, else an earlier one,
  // among those who work this day; else the one they saw last as booked.
  const usualPractitioner = new Map([...day.data.usualPractitioner, ...[...usualPlanned].flatMap(([clientId, ids]) => {
    const working = ids.find((id) => inRun.has(id));
    return working === undefined ? [] : [[clientId, working] as [number, number]];
  })]);
  // Read when the day's search starts: visits that start before now + the margin keep their time.
  const data = { ...day.data, usualPractitioner, workedBeforeSeconds: workedBefore, fixedUntilMs: fixedUntil(day.data.settings) };
  const clientOf = new Map(data.visits.map((visit) => [visit.id, visit.clientId]));
  const provider = travelProviderFor(ctx.config);
  const budgetMs = searchTimeMs(data.settings, ctx.config.optimizerMaxSearchMs);
  const professions = await practitionerProfessions(ctx.db, job.business_account_id,
    [...new Set([...data.practitioners.map((practitioner) => practitioner.practitionerId), ...data.visits.map((visit) => visit.practitionerId)])]);
  const typeNames = await appointmentTypeNames(ctx.db, job.business_account_id,
    [...new Set(data.visits.flatMap((visit) => (visit.appointmentTypeId === null ? [] : [visit.appointmentTypeId])))]);
  await writeProgress(run, at, { elapsed_ms: 0, best_travel_seconds: null, fraction: 0 });

  // A visit the search cannot place stays where it is, which its client's other visits' windows (and its
  // practitioner's route) did not allow for. When the plan would break a hard rule the day does not already break,
  // the visits involved are kept as they are and the day is searched again, briefly, from the plan before. After the
  // last round the days still involved are kept as they are in the plan itself (proposalWithinTheRules): a proposal
  // never adds a break, and Apply, which checks the plan the same way, accepts it while the day is unchanged.
  let keptAsTheyAre = new Set<number>();
  let frozenPractitionerIds = new Set<number>();
  let previous: Solution | null = null;
  let balanceTarget: number | undefined;
  // Practitioners called in whom a search gave a day below the call-in threshold: they stay at home from then on.
  let staysHome = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const routed = data.practitioners.filter((practitioner) => !staysHome.has(practitioner.practitionerId));
    const dayProblem = problemOf({ ...day, data: { ...data, practitioners: routed, keptAsTheyAre, frozenPractitionerIds } });
    const matrix = await travelMatrixFor(dayProblem.problem, { travel: provider });
    // The first search starts from the day as it is, each later one from the plan before it, so a round keeps what
    // the search found and the proposal is never worse than the day by the objective.
    const startFrom = previous ? planOf(previous).filter((route) => !staysHome.has(Number(route.practitionerId))) : planAsItIs(dayProblem);
    // Balancing, only a day's hours beyond the day's working time per practitioner as it is cost (the same target in
    // every round), so long days give work to the others.
    if (data.settings.balance_workload) {
      balanceTarget ??= meanWorkingSeconds(dayProblem.problem, matrix, startFrom);
      dayProblem.problem.balanceTargetSeconds = balanceTarget;
    }
    const searchMs = previous === null ? budgetMs : RETRY_SEARCH_MS;
    const solution = await solveDay(run, at, dayProblem.problem, matrix, { searchMs, seed }, startFrom);
    previous = solution;
    // The optimiser's independent checker (optimizer/checker.ts) on the plan against the problem solved: a plan it
    // refuses is never offered.
    const refused = checkSolution(dayProblem.problem, solution, matrix).errors;
    if (refused.length > 0) {
      run.ctx.log.error({ jobId: job.id, errors: refused.slice(0, 10) }, 'the optimiser\'s plan failed its independent check');
      throw new JobFailedError('The optimiser could not find a plan that passes its own checks for this day. Please tell support.');
    }
    const input = {
      day: dayProblem, matrix, solution, date, timeZone: data.businessTimeZone, mode, travelName: provider.name, appointmentTypeNames: typeNames,
      leftOutNames: new Map(day.leftOut.map((practitioner) => [practitioner.practitionerId, practitioner.name])), check: day.check,
      search: { seed, maxIterations: iterationBudget(searchMs, dayProblem.problem.visits.length) },
      professions,
    };
    const searched = buildProposal(input);
    // A day worth opening for each practitioner called in, or they stay at home and the day is searched again.
    const belowThreshold = calledInBelowThreshold(searched.lanes, day.callIns, data.settings);
    if (belowThreshold.length > 0) {
      staysHome = new Set([...staysHome, ...belowThreshold]);
      attempt--;
      continue;
    }
    const added = hardIssuesAdded(searched.checks!);
    if (added.length === 0 || attempt === MAX_ROUNDS) {
      const { proposal, keptDays } = added.length === 0 ? { proposal: searched, keptDays: new Set<number>() } : proposalWithinTheRules(input);
      if (keptDays.size > 0) run.ctx.log.info({ jobId: job.id, date, keptDays: [...keptDays] }, 'days kept as they are: the search left a break of the rules');
      await writeProgress(run, at, {
        elapsed_ms: Math.round(solution.stats.elapsedMs), best_travel_seconds: proposal.kpis.after.travel_seconds, fraction: 1,
        searches: solution.stats.searches ?? 1,
      });
      // Lanes of practitioners who could have been called in and were not are left out; those called in are named.
      const offered = {
        ...proposal, lanes: proposal.lanes.filter((lane) => !day.callIns.has(lane.practitioner_id) || lane.after.stops.length > 0),
        empty_day: null, called_in: calledInOf(proposal.lanes, day.callIns, date), not_routed: notRouted,
      };
      return { proposal: offered, fingerprints, clientOf, carers: carersOfDay(day.runVisits, offered) };
    }
    // First the visits involved (and those not placed) stay as they are; from the second round on, so do the whole
    // days of the practitioners involved (a day kept as it is adds no break).
    const involved = new Set([...solution.unassigned.map((item) => Number(item.visitId)), ...added.flatMap((issue) => issue.appointmentIds)]);
    keptAsTheyAre = new Set([...keptAsTheyAre, ...involved]);
    if (attempt >= 1) {
      const plannedPractitioner = new Map(searched.lanes.flatMap((lane) => lane.after.stops.map((stop) => [stop.appointment_id, lane.practitioner_id] as const)));
      const practitionersInvolved = data.visits.filter((visit) => involved.has(visit.id))
        .flatMap((visit) => [visit.practitionerId, plannedPractitioner.get(visit.id) ?? visit.practitionerId]);
      frozenPractitionerIds = new Set([...frozenPractitionerIds, ...practitionersInvolved]);
    }
  }
}

/** Searches after the first that may keep more visits as they are (ADR 0020); after them, the plan keeps the days still involved as they are. */
const MAX_ROUNDS = 5;
/** Each of those searches is short: together they keep the time to a proposal within about a second of the budget. */
const RETRY_SEARCH_MS = 200;

/**
 * The iterations a search of `visits` visits runs for `searchMs` of the search-time setting: about what one search
 * thread does in that time on a quiet machine (fewer per second on a bigger day). A run stops at its iterations, not
 * at a time, so the same day, settings and seed give the same plan on a busy machine too (issue 35); at least 1,000.
 */
export function iterationBudget(searchMs: number, visits: number): number {
  return Math.max(1000, Math.round((searchMs / 1000) * (ITERATIONS_A_SECOND / Math.cbrt(Math.max(1, visits)))));
}
/**
 * Iterations a second of one search on a quiet machine, times the cube root of the day's visits (40 visits: ~17,500/s),
 * measured on generated home-care days of 40, 120 and 320 visits whose moves from the agreed times are priced (each
 * evaluation simulates the route): 94,000, 58,000 and 63,000 (without the price: 171,000, 160,000 and 104,000).
 */
const ITERATIONS_A_SECOND = 60_000;
/**
 * The time that stops a search before its iterations (a safety cap on a very busy machine, with room for starting
 * the search threads): the proposal says so.
 */
export const timeCapMs = (searchMs: number) => 3 * searchMs + 10_000;

/**
 * Solves in the optimiser's worker thread (the event loop stays free), reporting progress; stops when the run is
 * cancelled. The search runs its iteration budget with the run's seed (reproducible); the time cap stops it sooner
 * on a very busy machine, and its stats then say it stopped by the budget (of time).
 */
async function solveDay(
  run: JobRun, at: DayOfRun, problem: Problem, matrix: TravelMatrix, { searchMs, seed }: { searchMs: number; seed: number }, startFrom: StartRoute[],
): Promise<Solution> {
  if (problem.visits.length === 0) return emptySolution();
  // The run stops when its job is cancelled: the heartbeat aborts run.signal, and a progress write that finds the
  // job no longer held aborts sooner. The solver then hands back its best plan, which is dropped.
  const stop = new AbortController();
  const cap = new AbortController();
  const capTimer = setTimeout(() => cap.abort(), timeCapMs(searchMs));
  const signal = AbortSignal.any([run.signal, stop.signal, cap.signal]);
  let interruption: unknown = null;
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  const searches = claimSearches(run.ctx.config.optimizerThreads);
  // Always the instance's searches (not only what is free now): how many search side by side changes the plan, and
  // the same seed must give the same one. Searches beyond the free threads share the cores, and take longer.
  const count = Math.max(1, run.ctx.config.optimizerThreads);
  const maxIterations = iterationBudget(searchMs, problem.visits.length);
  const onProgress = (progress: Progress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_EVERY_MS || interruption) return;
    lastWrite = now;
    writing = writing.then(() => writeProgress(run, at, {
      elapsed_ms: Math.round(progress.elapsedMs), best_travel_seconds: Math.round(progress.bestTravelTime), fraction: Math.round(progress.fraction * 1000) / 1000,
      searches: count,
    })).catch((error) => {
      interruption = error;
      stop.abort(error);
    });
  };
  let solution: Solution;
  try {
    solution = await solveInWorker(problem, { travel: matrix, maxIterations, seed, signal, onProgress, startFrom }, count);
  } finally {
    clearTimeout(capTimer);
    searches.release();
  }
  await writing;
  if (interruption) throw interruption;
  if (run.signal.aborted) throw run.signal.reason instanceof Error ? run.signal.reason : new JobInterrupted('cancelled');
  // Stopped by the time cap before its iterations: said as the budget (of time) that stopped it.
  return cap.signal.aborted && solution.stats.stoppedBy === 'abort' ? { ...solution, stats: { ...solution.stats, stoppedBy: 'budget' } } : solution;
}

/** The optimisation module's jobs, handed to whoever starts a worker (with the sync module's). */
export const optimizationJobHandlers: Pick<JobHandlers, 'OPTIMIZE'> = {
  OPTIMIZE: {
    run: async (run) => {
      await runOptimization(run);
      return null;
    },
  },
};
