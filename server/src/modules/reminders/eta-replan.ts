// Telling clients the new arrival a re-plan gives them: Apply, when asked, queues one
// ETA_MESSAGE job (kind replan) per client whose arrival moves by at least the business's eta_replan_minutes and is
// still ahead (server/src/lib/arrival-changes.ts), in Apply's transaction; ./eta.ts sends each once per visit and new
// arrival. A business with ETA messages off queues none.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessAccounts } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { isToldArrivalChange } from '../../lib/arrival-changes';
import type { EtaJobParams } from './eta';

/** A visit's arrival before and after a re-plan, and its day (yyyy-MM-dd in the business's zone). */
export interface ReplannedArrival {
  appointmentId: number;
  before: Date;
  after: Date;
  day: string;
}

/** Queues the messages of the changes whose clients are told; answers how many. */
export async function queueReplanMessages(
  tx: DbOrTx, businessAccountId: number, changes: readonly ReplannedArrival[], by: { userId: number; name: string }, now = new Date(),
): Promise<number> {
  const [settings] = await tx.select({ enabled: businessAccounts.eta_messages_enabled, minutes: businessAccounts.eta_replan_minutes })
    .from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  if (!settings?.enabled) return 0;
  const told = changes.filter((change) => isToldArrivalChange(change, settings.minutes, now));
  for (const change of told) {
    const params: EtaJobParams = { appointment_id: change.appointmentId, visit_step_id: null, kind: 'replan' };
    await enqueueJob(tx, {
      businessAccountId, kind: 'ETA_MESSAGE', maxAttempts: 1, startDate: change.day, endDate: change.day,
      createdByUserId: by.userId, createdByName: by.name, params: { ...params },
    });
  }
  return told.length;
}
