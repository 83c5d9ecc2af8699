import { Worker } from 'node:worker_threads';
import { travelMatrixFor, type EngineOptions } from './solve';
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

/** Sends one solve request to a worker and resolves with its answer. */
function runOn(worker: Worker, problem: Problem, matrix: TravelMatrix, options: EngineOptions): Promise<Solution> {
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
      },
      wantProgress: options.onProgress !== undefined,
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
const MAX_IDLE = 2;

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
 * Runs `solve` in a worker thread so the caller's event loop stays responsive. The travel matrix is
 * built here (providers may do I/O) and handed over; progress comes back as messages; aborting the
 * signal asks the worker to stop and return its best solution so far. The thread is kept for the next
 * solve when this one ends normally.
 */
export async function solveInWorker(problem: Problem, options: EngineOptions = {}): Promise<Solution> {
  assertValidProblem(problem);
  const matrix = await travelMatrixFor(problem, options);
  const worker = takeWorker();
  let solution: Solution;
  try {
    solution = await runOn(worker, problem, matrix, options);
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  park(worker);
  return solution;
}

/**
 * Long-lived worker threads for repeated solves (a server, a benchmark): each solve runs the same
 * problem on every worker with seeds seed, seed+1, … and returns the best solution, so more cores
 * buy robustness against an unlucky search without more wall time.
 */
export class OptimizerPool {
  private readonly workers: Worker[];

  constructor(readonly size: number) {
    if (!(size >= 1)) throw new Error('size: need at least one worker');
    this.workers = Array.from({ length: size }, startWorker);
  }

  async solve(problem: Problem, options: EngineOptions = {}): Promise<Solution> {
    assertValidProblem(problem);
    const matrix = await travelMatrixFor(problem, options);
    const seed = options.seed ?? 1;
    const solutions = await Promise.all(
      this.workers.map((w, k) =>
        runOn(w, problem, matrix, { ...options, seed: seed + k, onProgress: k === 0 ? options.onProgress : undefined }),
      ),
    );
    return solutions.reduce((best, s) => (s.objective.total < best.objective.total - 1e-9 ? s : best));
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
