// Drizzle table of optimisation runs (migrations 0092_optimization_runs.sql and 0101_optimization_run_seed.sql are the source of truth): a run's own record,
// keyed by its job's id; the job row (schema-jobs.ts) holds the queue's state and the search's progress.
import { date, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { businessAccounts, users } from './schema';
import { jobs } from './schema-jobs';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const optimizationRuns = pgTable('optimization_runs', {
  job_id: integer('job_id').primaryKey().references(() => jobs.id),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  first_date: date('first_date', { mode: 'string' }).notNull(),
  last_date: date('last_date', { mode: 'string' }).notNull(),
  mode: text('mode').$type<'keep_practitioners' | 'reassign'>().notNull(),
  practitioner_ids: integer('practitioner_ids').array().notNull(),
  /** The search's seed (null: a run made before seeds were kept, which used its id). */
  seed: integer('seed'),
  /** Each day's proposal and its visits as they were (typed by modules/optimizations), once the search has finished. */
  days: jsonb('days').$type<unknown[]>(),
  applied_at: tstz('applied_at'),
  applied_by_user_id: integer('applied_by_user_id').references(() => users.id),
  applied_by_name: text('applied_by_name'),
  /** What Undo needs, kept at Apply (typed by modules/optimizations). */
  undo: jsonb('undo').$type<object>(),
  discarded_at: tstz('discarded_at'),
  discarded_by_name: text('discarded_by_name'),
  undone_at: tstz('undone_at'),
  undone_by_name: text('undone_by_name'),
});
