// The clients' own availability page (no login): the emailed token identifies one client and one request. It can
// read that client's first name and availability, and save that client's availability once.
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { HttpError, invalid } from '../../http/errors';
import type { AvailabilityEntry } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { recordVersion } from '../audit';
import { markAvailabilityRequestUsed, normaliseAvailability, setClientAvailability, verifiedTokenHash } from '../clients';
import { findClientAvailability, findRequestByTokenHash, lockClientAvailability, type AvailabilityRequestRow } from './repository';

export const PUBLIC_AUTHOR = 'Client (availability link)';

const linkInvalid = () => invalid('This link is not valid. Please use the link from your most recent email, or ask your care provider for a new one.');
const linkUsed = () => new HttpError(410, 'This link has already been used. Ask your care provider to send a new one if you need to change your availability again.', 'LINK_USED');
const linkExpired = () => new HttpError(410, 'This link has expired. Ask your care provider to send a new one.', 'LINK_EXPIRED');

export class PublicAvailabilityService {
  constructor(private readonly ctx: AppContext) {}

  /** The request a token belongs to, if it is still usable; otherwise the error to answer with. */
  private async usableRequest(db: DbOrTx, token: string, options: { forUpdate?: boolean } = {}): Promise<AvailabilityRequestRow> {
    const tokenHash = verifiedTokenHash(this.ctx.config.appSecret, token);
    if (!tokenHash) throw linkInvalid();
    const request = await findRequestByTokenHash(db, tokenHash, options);
    if (!request) throw linkInvalid();
    if (request.used_at) throw linkUsed();
    if (request.expires_at.getTime() <= Date.now()) throw linkExpired();
    return request;
  }

  async get(token: string) {
    const linkRequest = await this.usableRequest(this.ctx.db, token);
    const client = await findClientAvailability(this.ctx.db, linkRequest.client_id);
    if (!client) throw linkInvalid();
    const { business } = client;
    return {
      client: { first_name: client.first_name },
      business: { name: business.name.trim(), email: business.email.trim() || null, phone: business.phone.trim() || null },
      availability: client.availability, expires_at: linkRequest.expires_at.toISOString(),
    };
  }

  /** Saves the client's availability and uses up the link, in one transaction with its change-log entry. */
  async update(token: string, entries: Schemas['AvailabilityEntry'][]): Promise<AvailabilityEntry[]> {
    const availability = normaliseAvailability(entries);
    await this.ctx.db.transaction(async (tx) => {
      const linkRequest = await this.usableRequest(tx, token, { forUpdate: true });
      const before = await lockClientAvailability(tx, linkRequest.client_id);
      if (!before) throw linkInvalid();
      await setClientAvailability(tx, linkRequest.business_account_id, linkRequest.client_id, before, availability);
      await markAvailabilityRequestUsed(tx, linkRequest.id);
      await recordVersion(tx, {
        businessAccountId: linkRequest.business_account_id, itemType: 'Client', itemId: linkRequest.client_id, event: 'update',
        whodunnit: PUBLIC_AUTHOR,
        changes: JSON.stringify(before) === JSON.stringify(availability) ? {} : { availability: [before, availability] },
      });
    });
    return availability;
  }
}
