// The worker: three loops (messages, imports and exports, optimisation runs), each claiming one job at a time,
// renewing its lease while it runs and recording how it ended. The API process runs one worker (config.runWorker);
// `npm run worker` runs more against the same database.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AppContext } from '../http/context';
import { WORKER_HEARTBEAT_MS, workerHeartbeat } from '../operations/health';
import { jobFailures, jobSeconds } from '../operations/metrics';
import {
  PmsAuthError, PmsError, PmsRateLimitError, PmsUnavailableError, ProviderAccountUnusableError, type AdapterTuning,
} from '../pms';
import {
  anotherBusinessWaits, assertJobHeld, claimJob, completeJob, failExhaustedJobs, failJob, getJob, JobInterrupted, jobEvents, releaseJob, renewLease,
  retryJobLater,
  type JobRow, type Lane,
} from './queue';
import { scheduleDueJobs, type SchedulerRules } from './scheduler';
import { JobFailedError, type JobHandlers, type JobResult } from './types';

export const RECONNECT_MESSAGE =
  'The practice management system refused the API key. An admin needs to reconnect it in Settings → Provider account.';

export interface WorkerOptions {
  /** How long a claimed job is held without a heartbeat. Default 60 s; renewed every third of it. */
  leaseMs?: number;
  /** Idle poll interval for jobs enqueued by other processes. Default 1 s. */
  pollMs?: number;
  /** Delay before a job that hit a temporary PMS failure runs again, times its attempt number. Default 30 s. */
  retryDelayMs?: number;
  /** Run the scheduler (automatic sync, reminders) in this worker, with these rules. Default: not run. */
  scheduler?: SchedulerRules;
  /** Scheduler tick. Default 30 s. */
  schedulerIntervalMs?: number;
  tuning?: AdapterTuning;
  workerId?: string;
}

interface Settings { handlers: JobHandlers; leaseMs: number; pollMs: number; retryDelayMs: number; tuning: AdapterTuning; workerId: string }

function settingsOf(handlers: JobHandlers, options: WorkerOptions): Settings {
  return {
    handlers,
    leaseMs: options.leaseMs ?? 60_000,
    pollMs: options.pollMs ?? 1_000,
    retryDelayMs: options.retryDelayMs ?? 30_000,
    tuning: options.tuning ?? {},
    workerId: options.workerId ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
  };
}

/** Runs one claimed job to its end (or until interrupted) and records the outcome. */
async function runClaimedJob(ctx: AppContext, job: JobRow, settings: Settings, stop: AbortSignal): Promise<void> {
  const { workerId, leaseMs } = settings;
  const controller = new AbortController();
  const onStop = () => controller.abort(new JobInterrupted('shutdown'));
  stop.addEventListener('abort', onStop);
  const heartbeat = setInterval(() => {
    renewLease(ctx.db, job.id, workerId, leaseMs).then((held) => {
      if (!held) controller.abort(new JobInterrupted('cancelled'));
    }).catch((error) => ctx.log.warn({ err: error, jobId: job.id }, 'lease renewal failed'));
  }, Math.max(50, Math.floor(leaseMs / 3)));
  const log = ctx.log.child({ jobId: job.id, kind: job.kind, businessAccountId: job.business_account_id });
  const timer = jobSeconds.startTimer({ kind: job.kind });
  try {
    log.info({ attempt: job.attempts }, 'job started');
    const result: JobResult | null = await settings.handlers[job.kind].run({
      ctx, job, workerId, signal: controller.signal, tuning: settings.tuning,
      guard: (tx) => assertJobHeld(tx, job.id, workerId),
      giveWayIfOthersWait: async () => {
        if (await anotherBusinessWaits(ctx.db, job)) throw new JobInterrupted('gave_way');
      },
    });
    if (await completeJob(ctx.db, job.id, workerId, result)) log.info({ result }, 'job complete');
    timer({ outcome: 'complete' });
  } catch (caught) {
    const error = controller.signal.aborted && !(caught instanceof JobInterrupted) ? controller.signal.reason ?? caught : caught;
    const outcome = await recordFailure(ctx, job, settings, error, log);
    timer({ outcome });
    if (outcome === 'failed') jobFailures.inc({ kind: job.kind });
  } finally {
    clearInterval(heartbeat);
    stop.removeEventListener('abort', onStop);
  }
}

/**
 * Fails the jobs whose workers stopped responding once too often, and tells their handlers as a job that gave up (a
 * booking's write, say, then shows as not saved instead of saving for ever).
 */
async function failExhausted(ctx: AppContext, settings: Settings): Promise<void> {
  for (const job of await failExhaustedJobs(ctx.db)) {
    await settings.handlers[job.kind].failed?.(ctx, job, { cause: 'gave-up', reason: job.error_message ?? 'The worker running this job stopped responding.', abandoned: true });
  }
}

/** Records how the job ended; says whether it failed, will be retried, or was interrupted. */
async function recordFailure(
  ctx: AppContext, job: JobRow, settings: Settings, error: unknown, log: AppContext['log'],
): Promise<'failed' | 'retried' | 'interrupted'> {
  const { workerId } = settings;
  const what = ({ IMPORT: 'import', EXPORT: 'export', PROVIDER_SETUP: 'connection setup', OPTIMIZE: 'optimisation', REMINDERS: 'reminders run', ETA_MESSAGE: 'ETA message', PMS_WRITE: 'write to the practice management system', CARE_ALLOCATION: 'care-plan allocation' } as const)[job.kind];
  if (error instanceof JobInterrupted) {
    if (error.reason === 'shutdown' || error.reason === 'gave_way') await releaseJob(ctx.db, job.id, workerId);
    log.info({ reason: error.reason }, 'job interrupted');
    return 'interrupted';
  }
  if (error instanceof PmsAuthError) {
    await settings.handlers[job.kind].failed?.(ctx, job, { cause: 'credentials-refused' });
    await failJob(ctx.db, job.id, workerId, RECONNECT_MESSAGE);
    log.warn('job failed: API key refused');
    return 'failed';
  }
  if (error instanceof JobFailedError) {
    await failJob(ctx.db, job.id, workerId, error.message);
    await settings.handlers[job.kind].failed?.(ctx, job, { cause: 'gave-up', reason: error.message });
    log.warn({ reason: error.message }, 'job failed');
    return 'failed';
  }
  if (error instanceof ProviderAccountUnusableError) {
    await failJob(ctx.db, job.id, workerId, error.message);
    return 'failed';
  }
  if (error instanceof PmsUnavailableError || error instanceof PmsRateLimitError) {
    const reason = `The practice management system is unavailable (${error.message}).`;
    if (job.attempts < job.max_attempts) {
      await retryJobLater(ctx.db, job.id, workerId, settings.retryDelayMs * job.attempts, `${reason} Retrying shortly.`);
      log.warn({ err: error }, 'job will be retried');
      return 'retried';
    }
    await failJob(ctx.db, job.id, workerId, `${reason} The ${what} was tried ${job.attempts} times; start it again later.`);
    await settings.handlers[job.kind].failed?.(ctx, job, { cause: 'gave-up', reason });
    return 'failed';
  }
  // The PMS's own answers (a refused write, a malformed record) help the user; anything else is our failure, whose
  // text (SQL, driver and stack details) belongs in the log, never in what the API shows.
  const reason = error instanceof PmsError ? error.message.replace(/\.$/, '') : 'an unexpected error on our side; it has been logged';
  log.error({ err: error }, 'job failed');
  await failJob(ctx.db, job.id, workerId, `The ${what} failed: ${reason}. Try again; if it keeps failing, contact support.`);
  await settings.handlers[job.kind].failed?.(ctx, job, { cause: 'gave-up', reason });
  return 'failed';
}

export interface Worker {
  readonly workerId: string;
  /** Wakes an idle worker to look for jobs now. */
  wake(): void;
  /** Stops claiming, hands the running jobs back to the queue and waits for the loops. */
  close(): Promise<void>;
}

/**
 * Starts a worker that runs each claimed job with its kind's handler. It has three slots, each its own loop over a
 * lane (queue.ts): ETA messages and reminders, imports and exports, optimisation runs (a search takes up to minutes),
 * so a message never waits behind an import and an import never waits behind a search.
 */
export function startWorker(ctx: AppContext, handlers: JobHandlers, options: WorkerOptions = {}): Worker {
  const settings = settingsOf(handlers, options);
  const stop = new AbortController();
  const wakeUps = new Set<() => void>();
  const wake = () => { for (const wakeUp of wakeUps) wakeUp(); };
  jobEvents.on('enqueued', wake);

  const runLane = async (lane: Lane) => {
    while (!stop.signal.aborted) {
      try {
        await failExhausted(ctx, settings);
        const job = await claimJob(ctx.db, settings.workerId, settings.leaseMs, undefined, lane);
        if (job) {
          await runClaimedJob(ctx, job, settings, stop.signal);
          continue;
        }
      } catch (error) {
        if (stop.signal.aborted) break;
        ctx.log.error({ err: error, lane }, 'worker loop error');
      }
      // Each idle wait takes its abort listener away again, or an idle worker would gather one per poll.
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          stop.signal.removeEventListener('abort', done);
          wakeUps.delete(done);
          resolve();
        };
        const timer = setTimeout(done, settings.pollMs);
        wakeUps.add(done);
        stop.signal.addEventListener('abort', done, { once: true });
      });
    }
  };
  const loops = Promise.all([runLane('messages'), runLane('sync'), runLane('search')]);

  const beat = () => workerHeartbeat(ctx.db, settings.workerId).catch((error) => ctx.log.warn({ err: error }, 'worker heartbeat failed'));
  void beat();
  const heartbeat = setInterval(beat, WORKER_HEARTBEAT_MS).unref();

  let scheduler: NodeJS.Timeout | null = null;
  const rules = options.scheduler;
  if (rules) {
    const tick = () => scheduleDueJobs(ctx.db, rules).catch((error) => ctx.log.error({ err: error }, 'job scheduling failed'));
    void tick();
    scheduler = setInterval(tick, options.schedulerIntervalMs ?? 30_000);
  }

  return {
    workerId: settings.workerId,
    wake,
    async close() {
      if (scheduler) clearInterval(scheduler);
      clearInterval(heartbeat);
      jobEvents.off('enqueued', wake);
      stop.abort();
      wake();
      await loops;
      await workerHeartbeat(ctx.db, settings.workerId, true).catch(() => undefined);
    },
  };
}

/**
 * Runs jobs in this process until none is runnable (no waiting for retries). Used by the demo seed before the
 * server announces ready, and by tests.
 */
export async function drainJobs(ctx: AppContext, handlers: JobHandlers, options: WorkerOptions = {}): Promise<void> {
  const settings = settingsOf(handlers, options);
  const never = new AbortController().signal;
  for (;;) {
    await failExhausted(ctx, settings);
    const job = await claimJob(ctx.db, settings.workerId, settings.leaseMs);
    if (!job) return;
    await runClaimedJob(ctx, job, settings, never);
  }
}

/** Sleeps until a job reaches a terminal status (tests, demo). */
export async function waitForJob(ctx: AppContext, id: number, timeoutMs = 60_000): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJob(ctx.db, id);
    if (!job) throw new Error(`job ${id} does not exist`);
    if (['COMPLETE', 'ERROR', 'CANCELLED'].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status} after ${timeoutMs} ms`);
    await sleep(50);
  }
}
