// Starts Rounds: configuration, database and migrations, the PMS sandbox and the demo data when asked, the HTTP
// server, and the job worker (imports, exports, automatic sync).
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { openDatabase } from './db/client';
import { migrate } from './db/migrate';
import { seedDemoIfEmpty } from './demo/seed';
import { startWorker, type Worker } from './jobs/worker';
import { createLogger } from './logger';
import { automaticSyncRules, jobHandlers } from './modules/job-handlers';
import { prewarmOptimizerWorkers } from './optimizer';
import { startSandbox, type SandboxHandle } from './pms/sandbox';

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
  const ctx = createContext(config, database, log);
  if (config.seedDemo) await seedDemoIfEmpty(ctx, { pmsApiKey: sandbox?.apiKey });

  const app = await buildApp({ ctx, logger: log });
  let worker: Worker | null = null;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await worker?.close();
    await app.close();
    await sandbox?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.runWorker) {
    worker = startWorker(ctx, jobHandlers, { scheduler: automaticSyncRules });
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
