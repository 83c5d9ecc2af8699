import { Worker } from 'node:worker_threads';
import { travelMatrixFor, type EngineOptions } from './solve';
import type { Problem, Solution } from './types';
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

/**
 * Runs `solve` in a worker thread so the caller's event loop stays responsive. The travel matrix is
 * built here (providers may do I/O) and handed over; progress comes back as messages; aborting the
 * signal asks the worker to stop and return its best solution so far.
 */
export async function solveInWorker(problem: Problem, options: EngineOptions = {}): Promise<Solution> {
  assertValidProblem(problem);
  const matrix = await travelMatrixFor(problem, options);
  const worker = startWorker();
  try {
    return await new Promise<Solution>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ type: 'abort' } satisfies WorkerRequest);
      if (options.signal?.aborted) onAbort();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.on('message', (msg: WorkerResponse) => {
        if (msg.type === 'progress') options.onProgress?.(msg.progress);
        else if (msg.type === 'result') resolve(msg.solution);
        else reject(msg.validation ? new ProblemValidationError(msg.validation) : new Error(msg.message));
      });
      worker.on('error', reject);
      worker.on('exit', (code) => reject(new Error(`optimizer worker exited with code ${code}`)));
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
    });
  } finally {
    await worker.terminate();
  }
}
