// The clients' own availability page (no login): the emailed token identifies one client and one request. It can
// read that client's first name and availability, and save that client's availability once. Rate-limited per IP
// through the contract's x-fastify-config.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { clients } from '../../db/schema';
import { clientAvailabilityRequests } from '../../db/schema-clients';
import { bodyOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { HttpError, invalid } from '../../http/errors';
import { recordVersion } from '../audit/versions';
import { normaliseAvailability } from '../clients/availability';
import { setClientAvailability } from '../clients/repository';
import { verifiedTokenHash } from './tokens';

export const PUBLIC_AUTHOR = 'Client (availability link)';

const linkInvalid = () => invalid('This link is not valid. Please use the link from your most recent email, or ask your care provider for a new one.');
const linkUsed = () => new HttpError(410, 'This link has already been used. Ask your care provider to send a new one if you need to change your availability again.', 'LINK_USED');
const linkExpired = () => new HttpError(410, 'This link has expired. Ask your care provider to send a new one.', 'LINK_EXPIRED');

type RequestRow = typeof clientAvailabilityRequests.$inferSelect;

/** The request a token belongs to, if it is still usable; otherwise the error to answer with. */
async function usableRequest(db: Db, secret: string, token: string, options: { forUpdate?: boolean } = {}): Promise<RequestRow> {
  const tokenHash = verifiedTokenHash(secret, token);
  if (!tokenHash) throw linkInvalid();
  const query = db.select().from(clientAvailabilityRequests).where(eq(clientAvailabilityRequests.token_hash, tokenHash));
  const [request] = options.forUpdate ? await query.for('update') : await query;
  if (!request) throw linkInvalid();
  if (request.used_at) throw linkUsed();
  if (request.expires_at.getTime() <= Date.now()) throw linkExpired();
  return request;
}

export function publicAvailabilityHandlers({ db, config }: AppContext): Handlers {
  return {
    getPublicAvailability: async (request) => {
      const linkRequest = await usableRequest(db, config.appSecret, queryOf(request, 'getPublicAvailability').token);
      const [client] = await db.select({ first_name: clients.first_name, availability: clients.availability }).from(clients)
        .where(eq(clients.id, linkRequest.client_id));
      if (!client) throw linkInvalid();
      return { client: { first_name: client.first_name }, availability: client.availability, expires_at: linkRequest.expires_at.toISOString() };
    },
    updatePublicAvailability: async (request) => {
      const body = bodyOf(request, 'updatePublicAvailability');
      const availability = normaliseAvailability(body.availability);
      await db.transaction(async (tx) => {
        const linkRequest = await usableRequest(tx, config.appSecret, body.token, { forUpdate: true });
        const [before] = await tx.select({ availability: clients.availability }).from(clients).where(eq(clients.id, linkRequest.client_id)).for('update');
        if (!before) throw linkInvalid();
        await setClientAvailability(tx, linkRequest.client_id, availability);
        await tx.update(clientAvailabilityRequests).set({ used_at: new Date() }).where(eq(clientAvailabilityRequests.id, linkRequest.id));
        await recordVersion(tx, {
          businessAccountId: linkRequest.business_account_id, itemType: 'Client', itemId: linkRequest.client_id, event: 'update',
          whodunnit: PUBLIC_AUTHOR,
          changes: JSON.stringify(before.availability) === JSON.stringify(availability) ? {} : { availability: [before.availability, availability] },
        });
      });
      return { message: 'Thank you. Your availability has been updated.', availability };
    },
  };
}
