import { buildModel, type CoreModel } from './core/model';
import { Search, type SearchParams } from './core/search';
import { feasibleStart } from './core/start';
import { buildRoutes, explainUnassigned, objectiveOf } from './output';
import { EuclideanProvider } from './travel/euclidean';
import { HaversineProvider } from './travel/haversine';
import { problemLocations } from './travel/matrix';
import type { Problem, Solution, SolveOptions, TravelMatrix } from './types';
import { assertValidProblem } from './validate';

export const DEFAULT_TIME_BUDGET_MS = 2000;
const SLICE_MS = 25;

export interface EngineOptions extends SolveOptions {
  /** Search tuning (benchmarks and tests). */
  tuning?: Partial<SearchParams>;
  /** Searches of one problem run side by side (OptimizerPool) and meet to continue from the best of them. */
  cooperation?: Cooperation;
}

/** A search's best solution: the visits (model indices) of each vehicle, and its cost. */
export interface SharedBest {
  cost: number;
  routes: number[][];
}

export interface Cooperation {
  /** Fractions of the budget at which the search hands over its best solution, in increasing order. */
  at: readonly number[];
  /** Resolves with the best of every search at this point, or null when this search's own is the best. */
  exchange(best: SharedBest): Promise<SharedBest | null>;
}

const isMatrix = (t: unknown): t is TravelMatrix =>
  typeof t === 'object' && t !== null && (t as TravelMatrix).durations instanceof Float64Array;

/** The travel matrix the solver will use for `problem` (over `problemLocations(problem)`). */
export async function travelMatrixFor(problem: Problem, options: SolveOptions = {}): Promise<TravelMatrix> {
  if (isMatrix(options.travel)) return options.travel;
  const provider =
    options.travel ?? (problem.coordinates === 'planar' ? new EuclideanProvider() : new HaversineProvider());
  return provider.matrix(problemLocations(problem));
}

/**
 * Plans the day: validates the problem, builds the travel matrix, searches within the time budget
 * (yielding to the event loop every few milliseconds so abort signals and progress work), and returns
 * routes with rounded arrival times, unassigned visits with reasons and the objective's terms.
 */
export async function solve(problem: Problem, options: EngineOptions = {}): Promise<Solution> {
  assertValidProblem(problem);
  const matrix = await travelMatrixFor(problem, options);
  return solveWithMatrix(problem, matrix, options);
}

export async function solveWithMatrix(problem: Problem, matrix: TravelMatrix, options: EngineOptions = {}): Promise<Solution> {
  const started = performance.now();
  const seed = options.seed ?? 1;
  const m = buildModel(problem, matrix);
  const search = new Search(m, seed, options.tuning);
  // The best is kept, so starting from a plan (the day as it is) the answer is never worse than that plan.
  if (options.startFrom && m.n > 0) search.adopt(feasibleStart(problem, m, options.startFrom));
  const maxIterations = options.maxIterations ?? Infinity;
  const budget = options.timeBudgetMs ?? (options.maxIterations !== undefined ? Infinity : DEFAULT_TIME_BUDGET_MS);
  const p = search.params;
  const t0 = p.t0 * search.avgLegCost;
  const tf = p.tf * search.avgLegCost;
  let stoppedBy: Solution['stats']['stoppedBy'] = 'budget';
  // With an iteration budget the search follows the iterations alone (its temperature, the meetings of a pool), so the
  // same problem, options and seed give the same plan however busy the machine is; a time budget given with it is only a
  // cap (a run it stops says 'budget').
  const byIterations = maxIterations !== Infinity;
  const overTime = () => performance.now() - started >= budget;
  const fraction = () =>
    Math.min(1, byIterations ? search.iterations / maxIterations : (performance.now() - started) / budget);
  const report = () =>
    options.onProgress?.({
      bestCost: search.bestCost,
      bestTravelTime: search.bestTravelTime(),
      iterations: search.iterations,
      elapsedMs: performance.now() - started,
      fraction: fraction(),
    });

  const cooperation = options.cooperation;
  let nextMeeting = 0;
  // A meeting ends the slice at the iteration it falls due, so that with maxIterations it is reproducible.
  const meetingDue = () =>
    cooperation !== undefined && nextMeeting < cooperation.at.length && fraction() >= cooperation.at[nextMeeting];
  if (m.n > 0) {
    outer: for (;;) {
      const sliceEnd = performance.now() + SLICE_MS;
      do {
        if (search.iterations >= maxIterations) {
          stoppedBy = 'iterations';
          break outer;
        }
        const f = fraction();
        if (f >= 1 || (byIterations && overTime())) break outer;
        search.iterate(t0 * Math.pow(tf / t0, f));
      } while (performance.now() < sliceEnd && !meetingDue());
      report();
      while (meetingDue()) {
        nextMeeting++;
        const better = await cooperation!.exchange({ cost: search.bestCost, routes: search.bestRoutes() });
        if (better) search.adopt(better.routes);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) {
        stoppedBy = 'abort';
        break;
      }
    }
  }
  search.restoreBest();
  report();
  return toSolution(problem, m, search, { seed, started, stoppedBy });
}

function toSolution(
  problem: Problem,
  m: CoreModel,
  search: Search,
  info: { seed: number; started: number; stoppedBy: Solution['stats']['stoppedBy'] },
): Solution {
  const routes: number[][] = [];
  for (let v = 0; v < m.vehicles; v++) routes.push(search.rs.visitsOf(v));
  const unassigned = search.unassigned().sort((a, b) => a - b);
  const planned = buildRoutes(problem, m, routes);
  return {
    routes: planned,
    unassigned: unassigned.map((c) => explainUnassigned(problem, m, c, routes)),
    objective: objectiveOf(m, routes, unassigned, planned),
    stats: {
      iterations: search.iterations,
      elapsedMs: performance.now() - info.started,
      seed: info.seed,
      stoppedBy: info.stoppedBy,
    },
  };
}
