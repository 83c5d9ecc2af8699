// Every module's job handlers, one per job kind, for whoever starts a worker (server/src/main.ts,
// server/src/worker-main.ts, the demo seed, tests, benchmarks), and the rules the scheduler asks (automatic sync,
// reminders). The jobs layer never imports modules.
import type { SchedulerRules } from '../jobs/scheduler';
import type { JobHandlers } from '../jobs/types';
import { bookingJobHandlers } from './bookings';
import { careJobHandlers } from './care';
import { optimizationJobHandlers } from './optimizations';
import { claimDueReminders, reminderJobHandlers } from './reminders';
import { automaticSyncRules as syncRules, syncJobHandlers } from './sync';

/** What the scheduler asks: the sync module's automatic imports and exports, and the reminders module's daily batches. */
export const automaticSyncRules: SchedulerRules = { ...syncRules, claimDueReminders };

export const jobHandlers: JobHandlers = { ...syncJobHandlers, ...optimizationJobHandlers, ...reminderJobHandlers, ...bookingJobHandlers, ...careJobHandlers };
