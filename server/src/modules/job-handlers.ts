// Every module's job handlers, one per job kind, for whoever starts a worker (server/src/main.ts,
// server/src/worker-main.ts, the demo seed, tests, benchmarks). The jobs layer never imports modules.
import type { JobHandlers } from '../jobs/types';
import { optimizationJobHandlers } from './optimizations/job';
import { syncJobHandlers } from './sync/job-handlers';

export { automaticSyncRules } from './sync/job-handlers';

export const jobHandlers: JobHandlers = { ...syncJobHandlers, ...optimizationJobHandlers };
