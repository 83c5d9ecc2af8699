// The reminders module's job (merged with the other modules' in ../job-handlers.ts) and what the scheduler asks it:
// which businesses' reminder hour has come (each day handed out once across processes) and which have reminders to
// retry or take over. A business that needs a payment method (subscriptions' rule) gets neither until it pays.
import type { DueReminderJob } from '../../jobs/scheduler';
import type { JobHandlers, JobRun } from '../../jobs/types';
import type { Db } from '../../db/client';
import { businessesRequiringPayment } from '../subscriptions';
import { businessesWithReminders, businessesWithReminderWork, claimRun } from './repository';
import { reminderSlot } from './schedule';
import { sendEtaMessage, type EtaJobParams } from './eta';
import { runReminderBatch } from './service';

export const reminderJobHandlers: Pick<JobHandlers, 'REMINDERS' | 'ETA_MESSAGE'> = {
  REMINDERS: {
    run: async (run: JobRun) => ({
      ...(await runReminderBatch(run.ctx, { businessAccountId: run.job.business_account_id, workerId: run.workerId, signal: run.signal })),
    }),
  },
  // One client's ETA message after an On my way (./eta.ts): sent at most once, whatever the job's attempts.
  ETA_MESSAGE: {
    run: async (run: JobRun) => ({ ...(await sendEtaMessage(run.ctx, run.job.business_account_id, run.job.params as unknown as EtaJobParams)) }),
  },
};

/**
 * At `now`, claims the day of each business with reminders on whose reminder hour has come today (in its zone), and
 * answers every business with reminders to list, retry or take over, once each; none that needs a payment method
 * (its day is not claimed: paying later the same day still sends the reminders of the next day's visits).
 */
export async function claimDueReminders(db: Db, now: Date): Promise<DueReminderJob[]> {
  const businesses = await businessesWithReminders(db, now);
  const unpaid = await businessesRequiringPayment(db, businesses.map((business) => business.id), now);
  for (const business of businesses) {
    if (unpaid.has(business.id)) continue;
    const slot = reminderSlot(now, business.reminder_hour, business.time_zone);
    if (now.getTime() >= slot.dueAt.getTime()) await claimRun(db, business.id, slot.visitDate, slot.dueAt);
  }
  const work = await businessesWithReminderWork(db);
  const unpaidWork = await businessesRequiringPayment(db, work.map((row) => row.business_account_id), now);
  return work.filter((row) => !unpaidWork.has(row.business_account_id)).map((row) => ({ businessAccountId: row.business_account_id, visitDate: row.visit_date }));
}
