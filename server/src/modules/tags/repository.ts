// Tag queries: the business's tags, which clients carry them (client_tags), and deleting one with its place on clients.
import { and, asc, eq, sql } from 'drizzle-orm';
import { clientTags, tags } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { databaseErrorCode, UNIQUE_VIOLATION } from '../../db/errors';

export type TagRow = typeof tags.$inferSelect;
export type TagChanges = { name?: string; color?: string | null };

/** Whether `error` is the database refusing a second tag of the same name. */
export function isDuplicateName(error: unknown): boolean {
  return databaseErrorCode(error) === UNIQUE_VIOLATION;
}

/** The business's tags by name. */
export function listTags(db: DbOrTx, businessAccountId: number): Promise<TagRow[]> {
  return db.select().from(tags).where(eq(tags.business_account_id, businessAccountId)).orderBy(asc(tags.name));
}

/** Inserts a tag; rejects with the database's unique violation (see isDuplicateName) when the name is taken. */
export async function insertTag(db: DbOrTx, businessAccountId: number, name: string, color: string | null): Promise<TagRow> {
  const [row] = await db.insert(tags).values({ business_account_id: businessAccountId, name, color }).returning();
  return row;
}

/** Applies `changes` to one of the business's tags; undefined when it has no such tag. */
export async function updateTag(db: DbOrTx, businessAccountId: number, id: number, changes: TagChanges): Promise<TagRow | undefined> {
  const [row] = await db.update(tags).set(changes)
    .where(and(eq(tags.id, id), eq(tags.business_account_id, businessAccountId)))
    .returning();
  return row;
}

/** One of the business's tags, locked for the rest of the transaction. */
export async function lockTag(tx: DbOrTx, businessAccountId: number, id: number): Promise<TagRow | undefined> {
  const [tag] = await tx.select().from(tags).where(and(eq(tags.id, id), eq(tags.business_account_id, businessAccountId))).for('update');
  return tag;
}

/** Each client carrying the tag, with all of that client's tag ids (ascending), by client id. */
export async function tagListsOfClientsWith(tx: DbOrTx, tagId: number): Promise<{ client_id: number; tag_ids: number[] }[]> {
  const rows = await tx.select({ client_id: clientTags.client_id, tag_ids: sql<number[]>`array_agg(${clientTags.tag_id} ORDER BY ${clientTags.tag_id})` })
    .from(clientTags)
    .where(sql`${clientTags.client_id} IN (SELECT client_id FROM client_tags WHERE tag_id = ${tagId})`)
    .groupBy(clientTags.client_id).orderBy(asc(clientTags.client_id));
  return rows.map(({ client_id, tag_ids }) => ({ client_id, tag_ids: tag_ids.map(Number) }));
}

/** Deletes a tag (take it off its clients first: clients/repository.ts removeTagFromClients). */
export async function deleteTag(tx: DbOrTx, tagId: number): Promise<void> {
  await tx.delete(tags).where(eq(tags.id, tagId));
}

/** Replaces a client's tags with `tagIds` (the tags module is the one writer of client_tags). */
export async function setClientTags(db: DbOrTx, clientId: number, tagIds: number[]): Promise<void> {
  await db.delete(clientTags).where(eq(clientTags.client_id, clientId));
  if (tagIds.length) await db.insert(clientTags).values(tagIds.map((tag_id) => ({ client_id: clientId, tag_id })));
}

/** Takes a tag off every client that carries it (the tag is being deleted). */
export async function removeTagFromClients(db: DbOrTx, tagId: number): Promise<void> {
  await db.delete(clientTags).where(eq(clientTags.tag_id, tagId));
}
