// Tags (ADMIN): create, rename, recolour, delete. Deleting a tag removes it from its clients, which is a change to
// each of those clients and so lands in their change logs.
import { and, asc, eq, sql } from 'drizzle-orm';
import { callerOf } from '../../auth/access';
import { clientTags, tags, versions } from '../../db/schema';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { toTagDto } from '../reference/handlers';

const UNIQUE_VIOLATION = '23505';

function tagName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('name must not be blank.');
  return trimmed;
}

function duplicateName(error: unknown, name: string | undefined): never {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  if (code === UNIQUE_VIOLATION) throw conflict(`A tag named '${name}' already exists.`);
  throw error;
}

export function tagsHandlers({ db }: AppContext): Handlers {
  return {
    createTag: async (request, reply) => {
      const { businessAccountId } = callerOf(request);
      const body = bodyOf(request, 'createTag');
      const name = tagName(body.name);
      const [row] = await db.insert(tags).values({ business_account_id: businessAccountId, name, color: body.color?.toLowerCase() ?? null })
        .returning().catch((error) => duplicateName(error, name));
      return reply.code(201).send({ tag: toTagDto(row) });
    },
    updateTag: async (request) => {
      const { businessAccountId } = callerOf(request);
      const body = bodyOf(request, 'updateTag');
      const changes: { name?: string; color?: string | null } = {};
      if (body.name !== undefined) changes.name = tagName(body.name);
      if (body.color !== undefined) changes.color = body.color?.toLowerCase() ?? null;
      const [row] = await db.update(tags).set(changes)
        .where(and(eq(tags.id, paramsOf(request, 'updateTag').id), eq(tags.business_account_id, businessAccountId)))
        .returning().catch((error) => duplicateName(error, changes.name));
      if (!row) throw notFound('Tag');
      return { tag: toTagDto(row) };
    },
    deleteTag: async (request, reply) => {
      const auth = callerOf(request);
      const tagId = paramsOf(request, 'deleteTag').id;
      await db.transaction(async (tx) => {
        const [tag] = await tx.select().from(tags).where(and(eq(tags.id, tagId), eq(tags.business_account_id, auth.businessAccountId))).for('update');
        if (!tag) throw notFound('Tag');
        // Each affected client's tag list before and after, for the change log.
        const affected = await tx.select({ client_id: clientTags.client_id, tag_ids: sql<number[]>`array_agg(${clientTags.tag_id} ORDER BY ${clientTags.tag_id})` })
          .from(clientTags)
          .where(sql`${clientTags.client_id} IN (SELECT client_id FROM client_tags WHERE tag_id = ${tagId})`)
          .groupBy(clientTags.client_id).orderBy(asc(clientTags.client_id));
        await tx.delete(clientTags).where(eq(clientTags.tag_id, tagId));
        await tx.delete(tags).where(eq(tags.id, tagId));
        if (affected.length) {
          await tx.insert(versions).values(affected.map(({ client_id, tag_ids }) => ({
            business_account_id: auth.businessAccountId, item_type: 'Client', item_id: client_id, event: 'update', whodunnit: auth.fullName,
            object_changes: { tag_ids: [tag_ids.map(Number), tag_ids.map(Number).filter((id) => id !== tagId)] as [unknown, unknown] },
          })));
        }
      });
      return reply.code(204).send();
    },
  };
}
