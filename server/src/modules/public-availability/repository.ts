// Queries behind the clients' own availability page: the request a token belongs to and that client's availability.
import { eq } from 'drizzle-orm';
import { businessAccounts, clients, type AvailabilityEntry } from '../../db/schema';
import { clientAvailabilityRequests } from '../../db/schema-clients';
import type { DbOrTx } from '../../db/client';

export type AvailabilityRequestRow = typeof clientAvailabilityRequests.$inferSelect;

/** The availability request with this token hash; `forUpdate` locks it for the rest of the transaction. */
export async function findRequestByTokenHash(db: DbOrTx, tokenHash: string, options: { forUpdate?: boolean } = {}): Promise<AvailabilityRequestRow | undefined> {
  const query = db.select().from(clientAvailabilityRequests).where(eq(clientAvailabilityRequests.token_hash, tokenHash));
  const [request] = options.forUpdate ? await query.for('update') : await query;
  return request;
}

/** A client's first name and availability, and their care provider's name and contact details. */
export async function findClientAvailability(db: DbOrTx, clientId: number): Promise<{
  first_name: string; availability: AvailabilityEntry[]; business: { name: string; email: string; phone: string };
} | undefined> {
  const [client] = await db.select({
    first_name: clients.first_name, availability: clients.availability,
    business: { name: businessAccounts.name, email: businessAccounts.contact_email, phone: businessAccounts.contact_phone },
  }).from(clients).innerJoin(businessAccounts, eq(businessAccounts.id, clients.business_account_id)).where(eq(clients.id, clientId));
  return client;
}

/** A client's availability, locked for the rest of the transaction. */
export async function lockClientAvailability(tx: DbOrTx, clientId: number): Promise<AvailabilityEntry[] | undefined> {
  const [before] = await tx.select({ availability: clients.availability }).from(clients).where(eq(clients.id, clientId)).for('update');
  return before?.availability;
}
