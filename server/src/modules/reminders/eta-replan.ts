// Telling clients the new arrival a re-plan gives them: Apply, when asked, queues one
// ETA_MESSAGE job (kind replan) per client whose visit moves by at least the business's eta_replan_minutes or goes to
// another practitioner, while its new arrival is ahead (server/src/lib/arrival-changes.ts), in Apply's transaction:
// one message per client per re-plan, about their first visit told (a client with two visits moved got two e-mails
// 54 ms apart). ./eta.ts sends each once per visit and new arrival. A business with ETA messages off queues none.
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { businessAccounts } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import { isToldArrivalChange } from '../../lib/arrival-changes';
import type { EtaJobParams } from './eta';

/** A visit's arrival before and after a re-plan, and its day (yyyy-MM-dd in the business's zone). */
export interface ReplannedArrival {
  appointmentId: number;
  clientId: number | null;
  before: Date;
  after: Date;
  practitionerBefore: number;
  practitionerAfter: number;
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
  const firstOfClient = new Map<number | string, ReplannedArrival>();
  for (const change of [...told].sort((a, b) => a.after.getTime() - b.after.getTime())) {
    const key = change.clientId ?? `visit ${change.appointmentId}`;
    if (!firstOfClient.has(key)) firstOfClient.set(key, change);
  }
  for (const change of firstOfClient.values()) {
    const params: EtaJobParams = {
      appointment_id: change.appointmentId, visit_step_id: null, kind: 'replan', new_practitioner: change.practitionerBefore !== change.practitionerAfter,
    };
    await enqueueJob(tx, {
      businessAccountId, kind: 'ETA_MESSAGE', maxAttempts: 1, startDate: change.day, endDate: change.day,
      createdByUserId: by.userId, createdByName: by.name, params: { ...params },
    });
  }
  return firstOfClient.size;
}
