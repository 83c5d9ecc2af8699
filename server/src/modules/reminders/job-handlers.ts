// The reminders module's job (merged with the other modules' in ../job-handlers.ts) and what the scheduler asks it:
// which businesses' reminder hour has come (each day handed out once across processes) and which have reminders to
// retry or take over.
import type { DueReminderJob } from '../../jobs/scheduler';
import type { JobHandlers, JobRun } from '../../jobs/types';
import type { Db } from '../../db/client';
import { businessesWithReminders, businessesWithReminderWork, claimRun } from './repository';
import { reminderSlot } from './schedule';
import { runReminderBatch } from './service';

export const reminderJobHandlers: Pick<JobHandlers, 'REMINDERS'> = {
  REMINDERS: {
    run: async (run: JobRun) => ({
      ...(await runReminderBatch(run.ctx, { businessAccountId: run.job.business_account_id, workerId: run.workerId, signal: run.signal })),
    }),
  },
};

/**
 * At `now`, claims the day of each business with reminders on whose reminder hour has come today (in its zone), and
 * answers every business with reminders to list, retry or take over, once each.
 */
export async function claimDueReminders(db: Db, now: Date): Promise<DueReminderJob[]> {
  for (const business of await businessesWithReminders(db, now)) {
    const slot = reminderSlot(now, business.reminder_hour, business.time_zone);
    if (now.getTime() >= slot.dueAt.getTime()) await claimRun(db, business.id, slot.visitDate, slot.dueAt);
  }
  const work = await businessesWithReminderWork(db);
  return work.map((row) => ({ businessAccountId: row.business_account_id, visitDate: row.visit_date }));
}
