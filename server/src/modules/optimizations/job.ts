// The OPTIMIZE job: builds the day's problem, solves it in the optimiser's worker thread (the event loop stays free
// for the API), reports progress into sync_jobs.progress through the job's guard, stops when the run is cancelled,
// and returns the proposal as the job's result.
import { JobInterrupted, saveJobProgress } from '../../jobs/queue';
import { JobFailedError, type JobHandlers, type JobRun } from '../../jobs/types';
import { checkSolution, solveInWorker, travelMatrixFor, type Problem, type Progress, type Solution, type TravelMatrix } from '../../optimizer';
import { hardIssuesAdded } from '../schedule';
import { loadDay, problemOf, travelProviderFor } from './day';
import type { OptimizationMode } from './problem';
import { buildProposal, fingerprintOf, type Proposal, type VisitFingerprint } from './proposal';
import { appointmentTypeNames, type SavedRoute, type WrittenVisit } from './repository';
import { fixedUntil } from '../optimization-settings';
import { searchTimeMs } from '../optimization-settings';
import { optimiserRuns } from '../../operations/metrics';

/** What a run stores in sync_jobs.progress while it solves. */
export interface RunProgress {
  elapsed_ms: number;
  /** Travel of the best plan found so far (seconds); null before the search starts. */
  best_travel_seconds: number | null;
  /** 0..1 of the search time used. */
  fraction: number;
}

/** A run's sync_jobs.result: the proposal, what the visits were, and what became of it. */
export interface RunResult {
  proposal: Proposal;
  fingerprints: VisitFingerprint[];
  applied?: { at: string; by_user_id: number; by_name: string };
  /** Kept at Apply for Undo. */
  undo?: AppliedChanges;
  undone?: { at: string; by_name: string };
  discarded?: { at: string; by_name: string };
}

/** What Undo needs: each visit as it was before Apply and as Apply left it, and the routes Apply replaced. */
export interface AppliedChanges {
  visits: { id: number; arrive_at: string | null; practitioner_id: number; route_id: number | null }[];
  written: WrittenVisit[];
  routes: SavedRoute[];
}

export interface RunParams { mode: OptimizationMode }

/** Least time between two progress writes. */
const PROGRESS_EVERY_MS = 300;

async function writeProgress(run: JobRun, progress: RunProgress): Promise<void> {
  await run.ctx.db.transaction(async (tx) => {
    await run.guard(tx);
    await saveJobProgress(tx, run.job.id, { ...progress });
  });
}

const emptySolution = (): Solution => ({
  routes: [], unassigned: [],
  objective: { total: 0, travelCost: 0, travelTime: 0, travelDistance: 0, continuity: 0, lateness: 0, overtime: 0, unassigned: 0 },
  stats: { iterations: 0, elapsedMs: 0, seed: 1, stoppedBy: 'iterations' },
});

export async function runOptimization(run: JobRun): Promise<RunResult> {
  try {
    const result = await optimizeDay(run);
    optimiserRuns.inc({ outcome: 'proposal' });
    return result;
  } catch (error) {
    optimiserRuns.inc({ outcome: run.signal.aborted ? 'interrupted' : 'failed' });
    throw error;
  }
}

async function optimizeDay(run: JobRun): Promise<RunResult> {
  const { ctx, job } = run;
  const mode = (job.params as Partial<RunParams>).mode ?? 'keep_practitioners';
  const date = job.start_date!;
  const day = await loadDay(ctx.db, job.business_account_id, { date, practitionerIds: job.filters.practitioner_ids, mode });
  if (day.problems.length) throw new JobFailedError(`The optimisation cannot run: ${day.problems.join(' ')}`);
  // Read when the run starts: visits that start before now + the margin keep their time.
  const data = { ...day.data, fixedUntilMs: fixedUntil(day.data.settings) };
  const provider = travelProviderFor(ctx.config);
  const budgetMs = searchTimeMs(data.settings, ctx.config.optimizerMaxSearchMs);
  const typeNames = await appointmentTypeNames(ctx.db, job.business_account_id,
    [...new Set(data.visits.flatMap((visit) => (visit.appointmentTypeId === null ? [] : [visit.appointmentTypeId])))]);
  await writeProgress(run, { elapsed_ms: 0, best_travel_seconds: null, fraction: 0 });

  // A visit the search cannot place stays where it is, which its client's other visits' windows (and its
  // practitioner's route) did not allow for. When the plan would break a hard rule the day does not already break,
  // the visits involved are kept as they are and the day is searched again, briefly; each round keeps more visits as
  // they are, so the rounds end with a plan that adds no break (a day kept as it is adds none).
  let keptAsTheyAre = new Set<number>();
  let frozenPractitionerIds = new Set<number>();
  for (let attempt = 0; ; attempt++) {
    const dayProblem = problemOf({ ...day, data: { ...data, keptAsTheyAre, frozenPractitionerIds } });
    const matrix = await travelMatrixFor(dayProblem.problem, { travel: provider });
    const solution = await solveDay(run, dayProblem.problem, matrix, attempt === 0 ? budgetMs : RETRY_SEARCH_MS);
    // The optimiser's independent checker (optimizer/checker.ts) on the plan against the problem solved: a plan it
    // refuses is never offered.
    const refused = checkSolution(dayProblem.problem, solution, matrix).errors;
    if (refused.length > 0) {
      run.ctx.log.error({ jobId: job.id, errors: refused.slice(0, 10) }, 'the optimiser\'s plan failed its independent check');
      throw new JobFailedError('The optimiser could not find a plan that passes its own checks for this day. Please tell support.');
    }
    const proposal = buildProposal({
      day: dayProblem, matrix, solution, date, timeZone: data.businessTimeZone, mode, travelName: provider.name, appointmentTypeNames: typeNames,
      leftOutNames: new Map(day.leftOut.map((practitioner) => [practitioner.practitionerId, practitioner.name])),
    });
    const added = hardIssuesAdded(proposal.checks!);
    if (added.length === 0 || attempt === MAX_ROUNDS) {
      await writeProgress(run, {
        elapsed_ms: Math.round(solution.stats.elapsedMs), best_travel_seconds: proposal.kpis.after.travel_seconds, fraction: 1,
      });
      return { proposal, fingerprints: data.visits.map(fingerprintOf) };
    }
    // First the visits involved (and those not placed) stay as they are; from the second round on, so do the whole
    // days of the practitioners involved (a day kept as it is adds no break).
    const involved = new Set([...solution.unassigned.map((item) => Number(item.visitId)), ...added.flatMap((issue) => issue.appointmentIds)]);
    keptAsTheyAre = new Set([...keptAsTheyAre, ...involved]);
    if (attempt >= 1) {
      const plannedPractitioner = new Map(proposal.lanes.flatMap((lane) => lane.after.stops.map((stop) => [stop.appointment_id, lane.practitioner_id] as const)));
      const practitionersInvolved = data.visits.filter((visit) => involved.has(visit.id))
        .flatMap((visit) => [visit.practitionerId, plannedPractitioner.get(visit.id) ?? visit.practitionerId]);
      frozenPractitionerIds = new Set([...frozenPractitionerIds, ...practitionersInvolved]);
    }
  }
}

/** Searches after the first that may keep more visits as they are (ADR 0020); Apply refuses a plan still breaking a rule. */
const MAX_ROUNDS = 5;
/** Each of those searches is short: together they keep the time to a proposal within about a second of the budget. */
const RETRY_SEARCH_MS = 200;

/** Solves in the optimiser's worker thread (the event loop stays free), reporting progress; stops when the run is cancelled. */
async function solveDay(run: JobRun, problem: Problem, matrix: TravelMatrix, timeBudgetMs: number): Promise<Solution> {
  if (problem.visits.length === 0) return emptySolution();
  // The run stops when its job is cancelled: the heartbeat aborts run.signal, and a progress write that finds the
  // job no longer held aborts sooner. The solver then hands back its best plan, which is dropped.
  const stop = new AbortController();
  const signal = AbortSignal.any([run.signal, stop.signal]);
  let interruption: unknown = null;
  let writing: Promise<void> = Promise.resolve();
  let lastWrite = 0;
  const onProgress = (progress: Progress) => {
    const now = Date.now();
    if (now - lastWrite < PROGRESS_EVERY_MS || interruption) return;
    lastWrite = now;
    writing = writing.then(() => writeProgress(run, {
      elapsed_ms: Math.round(progress.elapsedMs), best_travel_seconds: Math.round(progress.bestTravelTime), fraction: Math.round(progress.fraction * 1000) / 1000,
    })).catch((error) => {
      interruption = error;
      stop.abort(error);
    });
  };
  const solution = await solveInWorker(problem, { travel: matrix, timeBudgetMs, seed: run.job.id, signal, onProgress });
  await writing;
  if (interruption) throw interruption;
  if (run.signal.aborted) throw run.signal.reason instanceof Error ? run.signal.reason : new JobInterrupted('cancelled');
  return solution;
}

/** The optimisation module's jobs, handed to whoever starts a worker (with the sync module's). */
export const optimizationJobHandlers: Pick<JobHandlers, 'OPTIMIZE'> = {
  OPTIMIZE: { run: async (run) => ({ ...(await runOptimization(run)) }) },
};
