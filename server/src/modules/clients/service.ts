// What can be done to a client through the API; every change is recorded in the change log with its author.
import { Temporal } from 'temporal-polyfill';
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { DbOrTx } from '../../db/client';
import type { AvailabilityEntry } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound, tooManyRequests } from '../../http/errors';
import { ListCache } from '../../db/list-cache';
import { moveUpcomingVisits } from '../schedule';
import { changesBetween, recordVersion, recordVersions } from '../audit';
import { businessTimeZone } from '../../db/business-time-zone';
import { setClientTags } from '../tags';
import { AVAILABILITY_LINK_TTL_DAYS, issueAvailabilityToken } from './availability-tokens';
import { normaliseAvailability } from './availability';
import { fullName, toClientDto, toClientListItem } from './dto';
import {
  businessContact, clientTagIds, countAvailabilityRequestsSince, findClient, insertAvailabilityRequest, knownTagIds, listClientRows,
  insertAvailabilityRequests, lockClientRemindersEnabled, practitionerNames, practitionerPreferences, setClientAvailability, setClientManualPoint,
  setClientRemindersEnabled, setPractitionerPreferences, tagsByClient, type ClientListQuery, type ClientScope, type PractitionerPreferences,
} from './repository';
import { longDate } from '../../lib/long-date';

export const AVAILABILITY_REQUEST_MESSAGE = 'The availability request has been scheduled to send to client.';

/** Availability-request emails per client and business day. */
export const AVAILABILITY_REQUESTS_PER_DAY = 3;

/** How far back a practitioner's visit to a client still lets them see that client. */
export const PRACTITIONER_CLIENT_LOOKBACK_DAYS = 90;

/**
 * The clients `auth` may see and change (see ClientScope). The look-back starts at a UTC midnight, so it moves once a
 * day and a cached list page stays valid for the rest of that day.
 */
export function clientScope(auth: AuthContext, now = new Date()): ClientScope {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    businessAccountId: auth.businessAccountId,
    practitionerIds: practitionerScope(auth),
    visitedSince: new Date(midnight - PRACTITIONER_CLIENT_LOOKBACK_DAYS * 86_400_000),
  };
}

export class ClientsService {
  private readonly lists: ListCache;

  constructor(private readonly ctx: AppContext) {
    this.lists = new ListCache(ctx.db, ctx.config.listCacheMb);
  }

  /** A page of the clients `auth` may see, as the JSON text of the listClients body. */
  listJson(auth: AuthContext, query: ClientListQuery): Promise<string> {
    const scope = clientScope(auth);
    return this.lists.through(scope.businessAccountId, ['clients', scope.practitionerIds, scope.visitedSince, query], async () => {
      const { rows, total } = await listClientRows(this.ctx.db, scope, query);
      const tagMap = await tagsByClient(this.ctx.db, rows.map((row) => row.id));
      const body: { clients: Schemas['ClientListItem'][]; meta: Schemas['PageMeta'] } = {
        clients: rows.map((row) => toClientListItem(row, tagMap.get(row.id) ?? [])),
        meta: { page: query.page, per_page: query.perPage, total },
      };
      return JSON.stringify(body);
    }, auth.lists);
  }

  async get(auth: AuthContext, clientId: number): Promise<Schemas['Client']> {
    const row = await findClient(this.ctx.db, clientScope(auth), clientId);
    if (!row) throw notFound('Client');
    const [tagMap, preferences] = await Promise.all([
      tagsByClient(this.ctx.db, [row.id]), practitionerPreferences(this.ctx.db, auth.businessAccountId, row.id),
    ]);
    return toClientDto(row, tagMap.get(row.id) ?? [], preferences);
  }

  /** Replaces the client's availability; the caller is the author written to the change log. */
  async updateAvailability(auth: AuthContext, clientId: number, entries: AvailabilityEntry[]): Promise<Schemas['Client']> {
    const { businessAccountId } = auth;
    const whodunnit = auth.fullName;
    const availability = normaliseAvailability(entries);
    await this.ctx.db.transaction(async (tx) => {
      const before = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!before) throw notFound('Client');
      await setClientAvailability(tx, businessAccountId, clientId, before.availability, availability);
      await recordVersion(tx, {
        businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit,
        changes: JSON.stringify(before.availability) === JSON.stringify(availability) ? {} : { availability: [before.availability, availability] },
      });
    });
    return this.get(auth, clientId);
  }

  /**
   * A user corrects the client's pin: source 'manual', precision 'address', kept by later imports while the address
   * stays the same. The client's visits that have not ended move with it. Both are written to the change log.
   */
  async updateLocation(auth: AuthContext, clientId: number, point: { lat: number; lng: number }): Promise<Schemas['Client']> {
    const { businessAccountId } = auth;
    const whodunnit = auth.fullName;
    await this.ctx.db.transaction(async (tx) => {
      const before = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!before) throw notFound('Client');
      const after = await setClientManualPoint(tx, clientId, point);
      const located = ({ lat, lng, geo_precision, geo_source }: typeof after) => ({ lat, lng, geo_precision, geo_source });
      const changes = changesBetween(located(before), located(after));
      await recordVersion(tx, { businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit, changes });
      const visits = await moveUpcomingVisits(tx, clientId, point);
      await recordVersions(tx, visits.map((visit) => ({
        businessAccountId, itemType: 'Appointment' as const, itemId: visit.id, event: 'update' as const, whodunnit,
        changes: { lat: [visit.lat, point.lat], lng: [visit.lng, point.lng] },
        reason: 'The client’s pin was corrected by hand.',
      })));
    });
    return this.get(auth, clientId);
  }

  /** Turns the client's appointment reminders on or off (the client modal's switch). */
  async updateReminders(auth: AuthContext, clientId: number, enabled: boolean): Promise<Schemas['Client']> {
    await this.ctx.db.transaction(async (tx) => {
      const before = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!before) throw notFound('Client');
      if (before.reminders_enabled === enabled) return;
      await setClientRemindersEnabled(tx, clientId, enabled);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit: auth.fullName,
        changes: { reminders_enabled: [before.reminders_enabled, enabled] },
      });
    });
    return this.get(auth, clientId);
  }

  /**
   * Replaces the client's preferred and excluded practitioners: practitioners of the business, none in both lists.
   * The change log keeps both lists before and after.
   */
  async updatePractitioners(auth: AuthContext, clientId: number, wanted: PractitionerPreferences): Promise<Schemas['Client']> {
    const { businessAccountId } = auth;
    const after = {
      preferred: [...new Set(wanted.preferred)].sort((a, b) => a - b),
      excluded: [...new Set(wanted.excluded)].sort((a, b) => a - b),
    };
    await this.ctx.db.transaction(async (tx) => {
      const client = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!client) throw notFound('Client');
      const names = await practitionerNames(tx, businessAccountId, [...after.preferred, ...after.excluded]);
      for (const [field, ids] of [['preferred_practitioner_ids', after.preferred], ['excluded_practitioner_ids', after.excluded]] as const) {
        const unknown = ids.filter((id) => !names.has(id));
        if (unknown.length) throw invalid(`${field}: no practitioner with id ${unknown.join(', ')} in this business.`);
      }
      const both = after.preferred.filter((id) => after.excluded.includes(id));
      if (both.length) {
        const who = both.map((id) => names.get(id)).join(', ');
        throw invalid(`excluded_practitioner_ids: ${who} cannot be both preferred and excluded for ${fullName(client)}; choose one.`);
      }
      const before = await practitionerPreferences(tx, businessAccountId, clientId);
      if (JSON.stringify(before) === JSON.stringify(after)) return;
      await setPractitionerPreferences(tx, businessAccountId, clientId, after);
      const changes: Record<string, [unknown, unknown]> = {};
      if (JSON.stringify(before.preferred) !== JSON.stringify(after.preferred)) changes.preferred_practitioner_ids = [before.preferred, after.preferred];
      if (JSON.stringify(before.excluded) !== JSON.stringify(after.excluded)) changes.excluded_practitioner_ids = [before.excluded, after.excluded];
      await recordVersion(tx, { businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit: auth.fullName, changes });
    });
    return this.get(auth, clientId);
  }

  async updateTags(auth: AuthContext, clientId: number, tagIds: number[]): Promise<Schemas['Tag'][]> {
    const { businessAccountId } = auth;
    const wanted = [...new Set(tagIds)].sort((a, b) => a - b);
    await this.ctx.db.transaction(async (tx) => {
      const client = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!client) throw notFound('Client');
      if (wanted.length) {
        const known = await knownTagIds(tx, businessAccountId, wanted);
        const unknown = wanted.filter((id) => !known.includes(id));
        if (unknown.length) throw invalid(`tag_ids: no tag with id ${unknown.join(', ')}.`);
      }
      const current = await clientTagIds(tx, clientId);
      if (JSON.stringify(current) === JSON.stringify(wanted)) return;
      await setClientTags(tx, clientId, wanted);
      await recordVersion(tx, {
        businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit: auth.fullName,
        changes: { tag_ids: [current, wanted] },
      });
    });
    return (await this.get(auth, clientId)).tags;
  }

  /**
   * Emails the client a single-use link to set their own availability, at most AVAILABILITY_REQUESTS_PER_DAY times per
   * client and business day. The count is read from the stored requests under a lock on the client's row, so
   * several API processes agree on it.
   */
  async sendAvailabilityRequest(auth: AuthContext, clientId: number): Promise<{ message: string }> {
    const { token, tokenHash } = issueAvailabilityToken(this.ctx.config.appSecret);
    const { client, email } = await this.ctx.db.transaction(async (tx) => {
      const client = await findClient(tx, clientScope(auth), clientId, { forUpdate: true });
      if (!client) throw notFound('Client');
      const email = client.email?.trim();
      if (!email) throw invalid('This client has no email address.');
      const timeZone = await businessTimeZone(tx, auth.businessAccountId);
      const today = Temporal.Now.zonedDateTimeISO(timeZone).startOfDay();
      const sentToday = await countAvailabilityRequestsSince(tx, client.id, new Date(today.epochMilliseconds));
      if (sentToday >= AVAILABILITY_REQUESTS_PER_DAY) {
        const tomorrow = longDate(today.add({ days: 1 }).toPlainDate(), { withYear: false });
        throw tooManyRequests(`${fullName(client)} has already been sent ${AVAILABILITY_REQUESTS_PER_DAY} availability requests today. `
          + `You can send another from tomorrow, ${tomorrow} (${timeZone} time).`);
      }
      await insertAvailabilityRequest(tx, {
        business_account_id: auth.businessAccountId, client_id: client.id, token_hash: tokenHash, email,
        requested_by_user_id: auth.userId, expires_at: new Date(Date.now() + AVAILABILITY_LINK_TTL_DAYS * 24 * 3600_000),
      });
      return { client, email };
    });
    const link = availabilityLinkOf(this.ctx.config.publicUrl, token);
    // From and signed by the care provider, so the client knows who asks (and can answer them), not a stranger.
    const business = await businessContact(this.ctx.db, auth.businessAccountId);
    await this.ctx.mailer.send({
      to: email,
      businessAccountId: auth.businessAccountId,
      fromName: business.name,
      replyTo: business.email || undefined,
      subject: `${business.name}: please let us know when we can visit you`,
      text: [
        `Hello ${client.first_name},`,
        '',
        `To help ${business.name} plan your visits, please tell us on which days and at what times you are available:`,
        link,
        '',
        `The link works once and expires in ${AVAILABILITY_LINK_TTL_DAYS} days.`,
        '',
        'Kind regards,',
        auth.fullName,
        business.name,
        ...[business.phone, business.email].filter(Boolean),
      ].join('\n'),
    });
    this.ctx.log.info({ clientId: client.id }, 'availability request sent');
    return { message: AVAILABILITY_REQUEST_MESSAGE };
  }
}

/** The address of the availability page for a token. */
export function availabilityLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl}/client/update-availability?token=${encodeURIComponent(token)}`;
}

/**
 * Availability links sent with the daily reminders (one per client; no requester, so they do not count against the
 * requests users send). Answers each client's link, in the order given.
 */
export async function issueReminderAvailabilityLinks(
  ctx: AppContext, db: DbOrTx, businessAccountId: number, recipients: { clientId: number; email: string }[],
): Promise<string[]> {
  const expiresAt = new Date(Date.now() + AVAILABILITY_LINK_TTL_DAYS * 24 * 3600_000);
  const issued = recipients.map(() => issueAvailabilityToken(ctx.config.appSecret));
  await insertAvailabilityRequests(db, recipients.map((recipient, index) => ({
    business_account_id: businessAccountId, client_id: recipient.clientId, token_hash: issued[index].tokenHash,
    email: recipient.email, requested_by_user_id: null, expires_at: expiresAt,
  })));
  return issued.map(({ token }) => availabilityLinkOf(ctx.config.publicUrl, token));
}

/** A client turned their reminders off with the email's link: recorded with that author. */
export async function turnOffRemindersByLink(db: DbOrTx, businessAccountId: number, clientId: number, whodunnit: string): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await lockClientRemindersEnabled(tx, businessAccountId, clientId))) return;
    await setClientRemindersEnabled(tx, clientId, false);
    await recordVersion(tx, {
      businessAccountId, itemType: 'Client', itemId: clientId, event: 'update', whodunnit, changes: { reminders_enabled: [true, false] },
    });
  });
}
