// Starts Rounds: configuration, database and migrations, the PMS sandbox and the demo data when asked, the HTTP
// server, and the job worker (imports, exports, automatic sync).
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { resolveAppSecret } from './lib/app-secret';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedDemoIfEmpty } from './demo/seed';
import { startWorker, type Worker } from './jobs/worker';
import { createLogger } from './logger';
import { automaticSyncRules, jobHandlers } from './modules/job-handlers';
import { prewarmOptimizerWorkers } from './optimizer';
import { startSandbox, type SandboxHandle } from './pms/sandbox';

/** How long a shutdown may wait for requests in flight and the running job before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 25_000;

async function main() {
  const config = loadConfig();
  const log = createLogger(config.logLevel);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  const applied = await migrate(database);
  if (applied.length) log.info({ applied }, 'database migrations applied');

  let sandbox: SandboxHandle | null = null;
  if (config.startSandbox) {
    // Loopback only; SANDBOX_PORT pins the port (e.g. for e2e tests that talk to the sandbox), otherwise any free one.
    sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT ?? 0) || 0 });
    config.clinikoBaseUrl = sandbox.url;
    log.info(`PMS sandbox (Cliniko-compatible) listening at ${sandbox.url}`);
  }
  await resolveAppSecret(config, database, log);
  const ctx = createContext(config, database, log);
  if (config.seedDemo) await seedDemoIfEmpty(ctx, { pmsApiKey: sandbox?.apiKey });

  const app = await buildApp({ ctx, logger: log });
  let worker: Worker | null = null;
  let stopping = false;
  // SIGTERM/SIGINT: stop taking connections (new requests on open keep-alive connections get 503), let the requests in
  // flight finish with their answers, hand the running job back to the queue, then close the pool and exit 0.
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      log.error(`shutdown took longer than ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    deadline.unref();
    let clean = true;
    const step = async (what: string, action: () => Promise<unknown> | undefined) => {
      try {
        await action();
      } catch (error) {
        clean = false;
        log.error({ err: error }, `shutdown: ${what} failed`);
      }
    };
    await Promise.all([step('closing the HTTP server', () => app.close()), step('stopping the job worker', () => worker?.close())]);
    await step('stopping the PMS sandbox', () => sandbox?.close());
    await step('closing the database', () => database.close());
    log.info({ signal }, 'stopped');
    process.exit(clean ? 0 : 1);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.runWorker && !stopping) {
    worker = startWorker(ctx, jobHandlers, { scheduler: automaticSyncRules, leaseMs: config.jobLeaseMs });
    // The first optimisation run does not wait for its solver thread to start.
    prewarmOptimizerWorkers(1);
  }
  log.info(`Rounds is ready at ${config.publicUrl} (database: ${database.kind})`);
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
