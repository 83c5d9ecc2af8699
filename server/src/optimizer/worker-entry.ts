// Worker-thread entry for solveInWorker: receives a problem with its travel matrix, posts progress
// and the solution (or the error) back. An 'abort' message stops the search at its next slice.
import { parentPort } from 'node:worker_threads';
import { solveWithMatrix } from './solve';
import type { WorkerRequest, WorkerResponse } from './worker-protocol';
import { ProblemValidationError } from './validate';

if (!parentPort) throw new Error('worker-entry must run in a worker thread');
const port = parentPort;
const controller = new AbortController();

port.on('message', async (msg: WorkerRequest) => {
  if (msg.type === 'abort') {
    controller.abort();
    return;
  }
  const send = (m: WorkerResponse) => port.postMessage(m);
  try {
    const solution = await solveWithMatrix(msg.problem, msg.matrix, {
      ...msg.options,
      signal: controller.signal,
      onProgress: msg.wantProgress ? (progress) => send({ type: 'progress', progress }) : undefined,
    });
    send({ type: 'result', solution });
  } catch (e) {
    send({
      type: 'error',
      message: e instanceof Error ? e.message : String(e),
      validation: e instanceof ProblemValidationError ? e.errors : undefined,
    });
  }
});
