// Every module's job handlers, one per job kind, for whoever starts a worker (server/src/main.ts,
// server/src/worker-main.ts, the demo seed, tests, benchmarks), and the sync module's automatic-sync rules for the
// scheduler. The jobs layer never imports modules.
import type { JobHandlers } from '../jobs/types';
import { optimizationJobHandlers } from './optimizations';
import { syncJobHandlers } from './sync';

export { automaticSyncRules } from './sync';

export const jobHandlers: JobHandlers = { ...syncJobHandlers, ...optimizationJobHandlers };
