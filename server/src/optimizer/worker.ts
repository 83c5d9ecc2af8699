import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { travelMatrixFor, type EngineOptions, type SharedBest } from './solve';
import type { Problem, Solution, TravelMatrix } from './types';
import { assertValidProblem, ProblemValidationError } from './validate';
import type { WorkerRequest, WorkerResponse } from './worker-protocol';

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker-entry.ts' : './worker-entry.js', import.meta.url);

/**
 * Under tsx the worker must load TypeScript too: Node 20 does not apply `--import tsx` hooks to a
 * worker's own entry module, so a tiny bootstrap registers tsx's ESM loader, then imports the entry.
 */
function startWorker(): Worker {
  if (!ENTRY.pathname.endsWith('.ts')) return new Worker(ENTRY);
  const bootstrap = `
    const { workerData } = require('node:worker_threads');
    import('tsx/esm/api').then(({ register }) => { register(); return import(workerData.entry); });
  `;
  return new Worker(bootstrap, { eval: true, workerData: { entry: ENTRY.href } });
}

/** How a pool's worker meets the others: when, and where its best solution goes at each meeting. */
interface Meetings {
  at: number[];
  onBest(best: SharedBest): void;
}

/** Sends one solve request to a worker and resolves with its answer. */
function runOn(
  worker: Worker,
  problem: Problem,
  matrix: TravelMatrix,
  options: EngineOptions,
  meetings?: Meetings,
): Promise<Solution> {
  return new Promise<Solution>((resolve, reject) => {
    const onAbort = () => worker.postMessage({ type: 'abort' } satisfies WorkerRequest);
    const cleanup = () => {
      options.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (msg: WorkerResponse) => {
      if (msg.type === 'progress') return options.onProgress?.(msg.progress);
      if (msg.type === 'best') return meetings?.onBest(msg.best);
      cleanup();
      if (msg.type === 'result') resolve(msg.solution);
      else reject(msg.validation ? new ProblemValidationError(msg.validation) : new Error(msg.message));
    };
    const onError = (e: Error) => {
      cleanup();
      reject(e);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`optimizer worker exited with code ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const request: WorkerRequest = {
      type: 'solve',
      problem,
      matrix,
      options: {
        seed: options.seed,
        timeBudgetMs: options.timeBudgetMs,
        maxIterations: options.maxIterations,
        tuning: options.tuning,
        startFrom: options.startFrom,
      },
      wantProgress: options.onProgress !== undefined,
      meetAt: meetings?.at,
    };
    worker.postMessage(request);
    if (options.signal?.aborted) onAbort();
  });
}

/**
 * Worker threads left from earlier solves, kept for the next ones: starting a thread costs about a second under
 * tsx (it loads and compiles the engine), which a server would otherwise pay on every run. Idle threads are unref'd,
 * so they never keep a process alive.
 */
const idle: Worker[] = [];
/** As many idle threads as a run may use at once on this machine (at least two). */
const MAX_IDLE = Math.max(2, availableParallelism());

function park(worker: Worker): void {
  if (idle.length >= MAX_IDLE) {
    void worker.terminate();
    return;
  }
  worker.unref();
  idle.push(worker);
  worker.once('exit', () => {
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
  });
}

function takeWorker(): Worker {
  const worker = idle.pop();
  if (!worker) return startWorker();
  worker.removeAllListeners('exit');
  worker.ref();
  return worker;
}

/** Starts `count` worker threads ahead of the first solve (a server that runs optimisations calls it at start). */
export function prewarmOptimizerWorkers(count = 1): void {
  while (idle.length < Math.min(count, MAX_IDLE)) park(startWorker());
}

/**
 * Runs `solve` in worker threads so the caller's event loop stays responsive. The travel matrix is built here
 * (providers may do I/O) and handed over; progress comes back as messages; aborting the signal asks the workers to stop
 * and return their best solution so far. With `searches` above one, that many searches run side by side and meet as an
 * OptimizerPool's do (the result's stats say how many ran). The threads are kept for the next solves.
 */
export async function solveInWorker(problem: Problem, options: EngineOptions = {}, searches = 1): Promise<Solution> {
  assertValidProblem(problem);
  const matrix = await travelMatrixFor(problem, options);
  const workers = Array.from({ length: Math.max(1, Math.floor(searches)) }, takeWorker);
  let solution: Solution;
  try {
    solution = await solveTogether(workers, problem, matrix, options);
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw error;
  }
  workers.forEach(park);
  return solution;
}

/** Search threads solving now across runs, of the instance's limit (OPTIMIZER_THREADS). */
let searchesRunning = 0;

/**
 * The searches one run may use now: what is free of `limit`, at least one (a run never waits for a thread; a second
 * run while one uses them all gets one). Release them when the run's solve ends.
 */
export function claimSearches(limit: number): { count: number; release(): void } {
  const count = Math.max(1, Math.min(limit, limit - searchesRunning));
  searchesRunning += count;
  let released = false;
  return {
    count,
    release() {
      if (released) return;
      released = true;
      searchesRunning -= count;
    },
  };
}

/** Fractions of the budget at which a pool's searches meet and all continue from the best of them. */
const MEET_AT = [0.2, 0.4, 0.6, 0.8];

/**
 * Long-lived worker threads for repeated solves (a server, a benchmark): each solve runs the same
 * problem on every worker with seeds seed, seed+1, … and returns the best solution. Four times during
 * the budget the searches meet: each hands over its best and every one whose best is worse continues
 * from the best of them (on the 56 Solomon instances at 1.5 s, about a third less gap than keeping the
 * best of independent searches; ADR 0002). More cores buy quality without more wall time. With
 * maxIterations the meetings fall on fixed iterations, so results stay reproducible.
 */
export class OptimizerPool {
  private readonly workers: Worker[];

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new Error('size: need at least one worker');
    this.workers = Array.from({ length: size }, startWorker);
  }

  async solve(problem: Problem, options: EngineOptions = {}): Promise<Solution> {
    assertValidProblem(problem);
    return solveTogether(this.workers, problem, await travelMatrixFor(problem, options), options);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * One problem on every worker with seeds seed, seed+1, …; the searches meet MEET_AT the budget and each whose best is
 * worse continues from the best of them. Answers the best solution, its stats saying how many searches ran.
 */
async function solveTogether(workers: Worker[], problem: Problem, matrix: TravelMatrix, options: EngineOptions): Promise<Solution> {
  const seed = options.seed ?? 1;
  const searching = new Set(workers.keys());
  const waiting = new Map<number, SharedBest>();
  // Every search waits at a meeting until each search still running has arrived (one that has
  // finished no longer counts), then the worse ones get the best.
  const meetIfAllThere = () => {
    if (!waiting.size || waiting.size < searching.size) return;
    // The best of them, the first search's on a tie, whichever arrived first: the same seeds meet the same way.
    const best = [...waiting].sort(([a], [b]) => a - b).map(([, own]) => own).reduce((a, b) => (b.cost < a.cost ? b : a));
    for (const [k, own] of waiting) {
      workers[k].postMessage({ type: 'better', best: best.cost < own.cost - 1e-9 ? best : null } satisfies WorkerRequest);
    }
    waiting.clear();
  };
  const meetings = (k: number): Meetings | undefined =>
    workers.length > 1
      ? {
          at: MEET_AT,
          onBest: (best) => {
            waiting.set(k, best);
            meetIfAllThere();
          },
        }
      : undefined;
  const solutions = await Promise.all(
    workers.map((w, k) =>
      runOn(w, problem, matrix, { ...options, seed: seed + k, onProgress: k === 0 ? options.onProgress : undefined }, meetings(k))
        .finally(() => {
          searching.delete(k);
          meetIfAllThere();
        }),
    ),
  );
  const best = solutions.reduce((a, b) => (b.objective.total < a.objective.total - 1e-9 ? b : a));
  return { ...best, stats: { ...best.stats, searches: workers.length } };
}
