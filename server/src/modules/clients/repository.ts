// Client queries: the paginated list (trigram search, sort, filters) and a client with its tags.
import { Temporal } from 'temporal-polyfill';
import { and, asc, count, eq, gte, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../db/client';
import { bulkInsert, reserveIds } from '../../db/bulk';
import { businessTimeZone } from '../../db/business-time-zone';
import { businessAccounts, clients, clientTags, practitioners, tags, type AvailabilityEntry } from '../../db/schema';
import { clientAvailabilityRequests, clientPastAvailabilities, clientPractitionerPreferences } from '../../db/schema-clients';

export type ClientRow = typeof clients.$inferSelect;
export type TagSummary = { id: number; name: string; color: string | null };

export type ClientSort = 'name' | 'suburb' | 'phone' | 'email' | 'has_custom_availability' | 'has_address' | 'match';

export interface ClientListQuery {
  page: number;
  perPage: number;
  sort: ClientSort;
  direction: 'asc' | 'desc';
  q?: string;
  tagId?: number;
  missingAddress?: boolean;
}

export interface ClientListRow {
  id: number;
  first_name: string;
  last_name: string;
  city: string | null;
  email: string | null;
  phone: string | null;
  has_custom_availability: boolean;
  has_address: boolean;
}

const SORT_EXPRESSIONS: Record<Exclude<ClientSort, 'match'>, string> = {
  name: 'c.first_name %s, c.last_name %s',
  suburb: 'c.city %s NULLS LAST',
  phone: "(c.phone_numbers->0->>'number') %s NULLS LAST",
  email: 'c.email %s NULLS LAST',
  has_custom_availability: '(jsonb_array_length(c.availability) > 0) %s',
  has_address: 'c.has_address %s',
};

/** `%`, `_` and `\` are LIKE wildcards or the escape; match them literally. */
const escapeLike = (term: string) => term.replace(/[\\%_]/g, (character) => `\\${character}`);
const likeContaining = (term: string) => `%${escapeLike(term)}%`;

/**
 * The search as SQL over clients.search_text (lower-cased name, email, suburb and phones, trigram-indexed): every
 * word must appear; a query that looks like a phone number also matches its bare digits.
 */
export function searchCondition(q: string | undefined): SQL | undefined {
  const text = q?.trim().toLowerCase();
  if (!text) return undefined;
  const words = text.split(/\s+/).slice(0, 6);
  const allWords = sql.join(words.map((word) => sql`c.search_text LIKE ${likeContaining(word)}`), sql` AND `);
  const digits = text.replace(/\D/g, '');
  if (/^[\d\s()+.-]+$/.test(text) && digits.length >= 3 && digits !== text) {
    return sql`((${allWords}) OR c.search_text LIKE ${likeContaining(digits)})`;
  }
  return sql`(${allWords})`;
}

/**
 * Which clients a caller may see and change: the business's, and for a PRACTITIONER only the clients their
 * associated practitioners visit (an appointment that ends at or after `visitedSince`, i.e. in the past 90 days or
 * the future). Every query of this repository takes it, so a client outside it answers 404 like another tenant's.
 */
export interface ClientScope {
  businessAccountId: number;
  /** null: every practitioner's clients (ADMIN, REGULAR_USER). */
  practitionerIds: number[] | null;
  visitedSince: Date;
}

/** The scope as SQL over a clients row whose id and business are `clientId` and `businessId`. */
function scopeCondition(scope: ClientScope, clientId: SQL, businessId: SQL): SQL {
  const tenant = sql`${businessId} = ${scope.businessAccountId}`;
  if (scope.practitionerIds === null) return tenant;
  if (scope.practitionerIds.length === 0) return sql`false`;
  const practitionerIds = sql.join(scope.practitionerIds.map((id) => sql`${id}`), sql`, `);
  return sql`(${tenant} AND EXISTS (
    SELECT 1 FROM appointments a
    WHERE a.client_id = ${clientId} AND a.business_account_id = ${scope.businessAccountId}
      AND a.practitioner_id IN (${practitionerIds}) AND a.ends_at >= ${scope.visitedSince.toISOString()}::timestamptz))`;
}

export async function listClientRows(db: DbOrTx, scope: ClientScope, query: ClientListQuery): Promise<{ rows: ClientListRow[]; total: number }> {
  const conditions: SQL[] = [scopeCondition(scope, sql`c.id`, sql`c.business_account_id`)];
  const search = searchCondition(query.q);
  if (search) conditions.push(search);
  if (query.tagId !== undefined) conditions.push(sql`EXISTS (SELECT 1 FROM client_tags ct WHERE ct.client_id = c.id AND ct.tag_id = ${query.tagId})`);
  if (query.missingAddress === true) conditions.push(sql`NOT c.has_address`);
  if (query.missingAddress === false) conditions.push(sql`c.has_address`);
  const where = sql.join(conditions, sql` AND `);

  const direction = query.direction === 'desc' ? 'DESC' : 'ASC';
  const sort = query.sort === 'match' ? 'name' : query.sort;
  const primary = SORT_EXPRESSIONS[sort].replaceAll('%s', direction);
  const byColumn = sql.raw(sort === 'name' ? `${primary}, c.id ${direction}` : `${primary}, c.first_name ASC, c.last_name ASC, c.id ASC`);
  // The best match first (a type-ahead): clients whose whole name starts with what was typed, then the others by name.
  const typed = query.q?.trim().toLowerCase().replace(/\s+/g, ' ');
  const order = query.sort === 'match' && typed
    ? sql`(lower(btrim(c.first_name || ' ' || c.last_name)) LIKE ${`${escapeLike(typed)}%`}) DESC, ${byColumn}`
    : byColumn;

  const [rows, [{ total }]] = await Promise.all([
    queryRows<ClientListRow>(db, sql`
      SELECT c.id, c.first_name, c.last_name, c.city, c.email, c.phone_numbers->0->>'number' AS phone,
             jsonb_array_length(c.availability) > 0 AS has_custom_availability, c.has_address
      FROM clients c
      WHERE ${where}
      ORDER BY ${order}
      LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`),
    queryRows<{ total: number }>(db, sql`SELECT count(*)::int AS total FROM clients c WHERE ${where}`),
  ]);
  return { rows, total: Number(total) };
}

/** Tags of each client, by client id, ordered by tag name. */
export async function tagsByClient(db: DbOrTx, clientIds: number[]): Promise<Map<number, TagSummary[]>> {
  const byClient = new Map<number, TagSummary[]>();
  if (clientIds.length === 0) return byClient;
  const rows = await db.select({ client_id: clientTags.client_id, id: tags.id, name: tags.name, color: tags.color })
    .from(clientTags).innerJoin(tags, eq(tags.id, clientTags.tag_id))
    .where(inArray(clientTags.client_id, clientIds)).orderBy(asc(tags.name), asc(tags.id));
  for (const { client_id, ...tag } of rows) {
    const list = byClient.get(client_id) ?? [];
    list.push(tag);
    byClient.set(client_id, list);
  }
  return byClient;
}

export async function findClient(db: DbOrTx, scope: ClientScope, clientId: number, options: { forUpdate?: boolean } = {}): Promise<ClientRow | undefined> {
  const query = db.select().from(clients).where(and(eq(clients.id, clientId), scopeCondition(scope, sql`${clients.id}`, sql`${clients.business_account_id}`)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row;
}

/**
 * Replaces the client's availability (`before`, read under the row's lock) from today on: the visits of earlier days
 * (in the business's time zone) keep being judged by the availability they had (client_past_availabilities). A second
 * change on the same day keeps what was in force before that day.
 */
export async function setClientAvailability(
  db: DbOrTx, businessAccountId: number, clientId: number, before: AvailabilityEntry[], availability: AvailabilityEntry[],
): Promise<void> {
  if (JSON.stringify(before) === JSON.stringify(availability)) return;
  const today = Temporal.Now.zonedDateTimeISO(await businessTimeZone(db, businessAccountId)).startOfDay();
  await db.insert(clientPastAvailabilities)
    .values({ business_account_id: businessAccountId, client_id: clientId, valid_until: new Date(today.epochMilliseconds), availability: before })
    .onConflictDoNothing();
  await db.update(clients).set({ availability, updated_at: new Date() }).where(eq(clients.id, clientId));
}

/** Whether the business's client gets reminders (false also when there is no such client), locking the row. */
export async function lockClientRemindersEnabled(db: DbOrTx, businessAccountId: number, clientId: number): Promise<boolean> {
  const [row] = await db.select({ reminders_enabled: clients.reminders_enabled }).from(clients)
    .where(and(eq(clients.id, clientId), eq(clients.business_account_id, businessAccountId))).for('update');
  return row?.reminders_enabled ?? false;
}

/** Turns the client's appointment reminders on or off. */
export async function setClientRemindersEnabled(db: DbOrTx, clientId: number, enabled: boolean): Promise<void> {
  await db.update(clients).set({ reminders_enabled: enabled, updated_at: new Date() }).where(eq(clients.id, clientId));
}

/** Puts the client's pin where a user placed it: source 'manual', precision 'address', kept by later imports. */
export async function setClientManualPoint(db: DbOrTx, clientId: number, point: { lat: number; lng: number }): Promise<ClientRow> {
  const [row] = await db.update(clients)
    .set({ lat: point.lat, lng: point.lng, geo_precision: 'address', geo_source: 'manual', geo_manual: true, updated_at: new Date() })
    .where(eq(clients.id, clientId)).returning();
  return row;
}


/** Who the business is to its clients: its name and contact details (the availability request is signed with them). */
export async function businessContact(db: DbOrTx, businessAccountId: number): Promise<{ name: string; email: string; phone: string }> {
  const [row] = await db.select({ name: businessAccounts.name, email: businessAccounts.contact_email, phone: businessAccounts.contact_phone })
    .from(businessAccounts).where(eq(businessAccounts.id, businessAccountId));
  return { name: row?.name.trim() ?? '', email: row?.email.trim() ?? '', phone: row?.phone.trim() ?? '' };
}

/** How many availability requests were stored for the client since `since` (whichever process sent them). */
export async function countAvailabilityRequestsSince(db: DbOrTx, clientId: number, since: Date): Promise<number> {
  // Links sent with the daily reminders have no requester and do not count against a user's requests.
  const [{ total }] = await db.select({ total: count() }).from(clientAvailabilityRequests)
    .where(and(eq(clientAvailabilityRequests.client_id, clientId), gte(clientAvailabilityRequests.created_at, since),
      isNotNull(clientAvailabilityRequests.requested_by_user_id)));
  return Number(total);
}

/** Marks an availability request's link as used: it cannot save again. */
export async function markAvailabilityRequestUsed(db: DbOrTx, requestId: number): Promise<void> {
  await db.update(clientAvailabilityRequests).set({ used_at: new Date() }).where(eq(clientAvailabilityRequests.id, requestId));
}

/** Which of `tagIds` are tags of the business. */
export async function knownTagIds(db: DbOrTx, businessAccountId: number, tagIds: number[]): Promise<number[]> {
  const rows = await db.select({ id: tags.id }).from(tags).where(and(eq(tags.business_account_id, businessAccountId), inArray(tags.id, tagIds)));
  return rows.map((row) => row.id);
}

/** A client's tag ids, ascending. */
export async function clientTagIds(db: DbOrTx, clientId: number): Promise<number[]> {
  return (await db.select({ tag_id: clientTags.tag_id }).from(clientTags).where(eq(clientTags.client_id, clientId)))
    .map((row) => row.tag_id).sort((a, b) => a - b);
}

/** Stores an availability request whose emailed link carries the token with this hash. */
export async function insertAvailabilityRequest(db: DbOrTx, request: typeof clientAvailabilityRequests.$inferInsert): Promise<void> {
  await db.insert(clientAvailabilityRequests).values(request);
}

export async function insertAvailabilityRequests(db: DbOrTx, requests: (typeof clientAvailabilityRequests.$inferInsert)[]): Promise<void> {
  if (requests.length) await db.insert(clientAvailabilityRequests).values(requests);
}

/** A client's preferred and excluded practitioners. */
export interface PractitionerPreferences { preferred: number[]; excluded: number[] }

/** The client's preferred and excluded practitioner ids, each ascending. */
export async function practitionerPreferences(db: DbOrTx, businessAccountId: number, clientId: number): Promise<PractitionerPreferences> {
  const rows = await db.select({ id: clientPractitionerPreferences.practitioner_id, kind: clientPractitionerPreferences.kind })
    .from(clientPractitionerPreferences)
    .where(and(eq(clientPractitionerPreferences.business_account_id, businessAccountId), eq(clientPractitionerPreferences.client_id, clientId)))
    .orderBy(asc(clientPractitionerPreferences.practitioner_id));
  return {
    preferred: rows.filter((row) => row.kind === 'preferred').map((row) => row.id),
    excluded: rows.filter((row) => row.kind === 'excluded').map((row) => row.id),
  };
}

/** Replaces the client's preferred and excluded practitioners. */
export async function setPractitionerPreferences(db: DbOrTx, businessAccountId: number, clientId: number, preferences: PractitionerPreferences): Promise<void> {
  await db.delete(clientPractitionerPreferences)
    .where(and(eq(clientPractitionerPreferences.business_account_id, businessAccountId), eq(clientPractitionerPreferences.client_id, clientId)));
  const rows = [
    ...preferences.preferred.map((id) => ({ practitioner_id: id, kind: 'preferred' as const })),
    ...preferences.excluded.map((id) => ({ practitioner_id: id, kind: 'excluded' as const })),
  ].map((row) => ({ ...row, business_account_id: businessAccountId, client_id: clientId }));
  if (rows.length) await db.insert(clientPractitionerPreferences).values(rows);
}

/** The names of those of `ids` that are practitioners of the business, by id. */
export async function practitionerNames(db: DbOrTx, businessAccountId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: practitioners.id, first_name: practitioners.first_name, last_name: practitioners.last_name }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids)));
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim()]));
}

/** What an import writes of a client: the PMS's patient and the point placed for its address. */
export type ImportedClient = Omit<typeof clients.$inferInsert, 'id' | 'business_account_id' | 'created_at' | 'updated_at' | 'availability'>;

const IMPORTED_CLIENT_COLUMNS = {
  id: 'integer', business_account_id: 'integer', first_name: 'text', last_name: 'text', dob: 'date', email: 'text', phone_numbers: 'jsonb',
  address_1: 'text', address_2: 'text', city: 'text', state: 'text', post_code: 'text', country: 'text', time_zone: 'text',
  lat: 'double precision', lng: 'double precision', geo_precision: 'text', geo_source: 'text', geo_manual: 'boolean',
};

/**
 * An import's writes of clients, in its transaction (sync): the changed ones row by row (`values` only: what Rounds
 * keeps stays), the new ones in one statement. Answers the new clients' ids, in the order of `fresh`.
 */
export async function upsertImportedClients(
  tx: DbOrTx, businessAccountId: number, { changed, fresh }: { changed: { id: number; values: Partial<ImportedClient> }[]; fresh: ImportedClient[] },
): Promise<number[]> {
  for (const { id, values } of changed) await tx.update(clients).set({ ...values, updated_at: new Date() }).where(eq(clients.id, id));
  if (fresh.length === 0) return [];
  const ids = await reserveIds(tx, 'clients', fresh.length);
  await bulkInsert(tx, 'clients', IMPORTED_CLIENT_COLUMNS, fresh.map((values, index) => ({ ...values, id: ids[index], business_account_id: businessAccountId })));
  return ids;
}
