// Worker-thread entry for solveInWorker and OptimizerPool: solves each request it receives with its
// travel matrix, posting progress and the solution (or the error) back. An 'abort' message stops the
// current search at its next slice, which then returns its best solution.
import { constants, getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { solveWithMatrix, type Cooperation, type SharedBest } from './solve';
import type { WorkerRequest, WorkerResponse } from './worker-protocol';
import { ProblemValidationError } from './validate';

if (!parentPort) throw new Error('worker-entry must run in a worker thread');
// A search uses its whole core until its time is up. On Linux a thread's nice value is its own (setpriority on the
// calling thread, pid 0; a new thread starts with its creator's), so this thread, ten steps nicer than the process,
// yields to the API's event loop, which then answers as fast while runs solve; elsewhere, or where it is not
// allowed, the thread keeps the process's priority.
try {
  setPriority(Math.min(constants.priority.PRIORITY_LOW, getPriority() + constants.priority.PRIORITY_BELOW_NORMAL));
} catch {
  // not permitted here: solve at the normal priority
}
const port = parentPort;
let current: AbortController | null = null;
/** Resolves the meeting this worker's search is waiting at, if any. */
let answerMeeting: ((best: SharedBest | null) => void) | null = null;

const send = (m: WorkerResponse) => port.postMessage(m);

function meet(at: number[]): Cooperation {
  return {
    at,
    exchange: (best) =>
      new Promise((resolve) => {
        answerMeeting = resolve;
        send({ type: 'best', best });
      }),
  };
}

function answer(best: SharedBest | null): void {
  const resolve = answerMeeting;
  answerMeeting = null;
  resolve?.(best);
}

port.on('message', async (msg: WorkerRequest) => {
  if (msg.type === 'abort') {
    current?.abort();
    answer(null);
    return;
  }
  if (msg.type === 'better') {
    answer(msg.best);
    return;
  }
  const controller = (current = new AbortController());
  try {
    const solution = await solveWithMatrix(msg.problem, msg.matrix, {
      ...msg.options,
      signal: controller.signal,
      onProgress: msg.wantProgress ? (progress) => send({ type: 'progress', progress }) : undefined,
      cooperation: msg.meetAt?.length ? meet(msg.meetAt) : undefined,
    });
    send({ type: 'result', solution });
  } catch (e) {
    send({
      type: 'error',
      message: e instanceof Error ? e.message : String(e),
      validation: e instanceof ProblemValidationError ? e.errors : undefined,
    });
  } finally {
    if (current === controller) current = null;
  }
});
