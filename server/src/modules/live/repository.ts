// The live desk's stream tickets (live_tickets, migration 0097b): written only here.
import { and, eq, gt, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { liveTickets } from '../../db/schema-live';

export interface TicketHolder {
  userId: number;
  businessAccountId: number;
  /** null: every practitioner of the business; else only these. */
  practitionerIds: number[] | null;
}

export async function insertTicket(db: DbOrTx, tokenHash: string, holder: TicketHolder, expiresAt: Date): Promise<void> {
  await db.delete(liveTickets).where(lt(liveTickets.expires_at, new Date()));
  await db.insert(liveTickets).values({
    token_hash: tokenHash, business_account_id: holder.businessAccountId, user_id: holder.userId, practitioner_ids: holder.practitionerIds, expires_at: expiresAt,
  });
}

/** Deletes the ticket and answers who holds it; undefined when it is unknown, already used or expired. */
export async function takeTicket(db: DbOrTx, tokenHash: string, now: Date): Promise<TicketHolder | undefined> {
  const [row] = await db.delete(liveTickets)
    .where(and(eq(liveTickets.token_hash, tokenHash), gt(liveTickets.expires_at, now)))
    .returning({ userId: liveTickets.user_id, businessAccountId: liveTickets.business_account_id, practitionerIds: liveTickets.practitioner_ids });
  return row;
}
