// Tags: the list, and (ADMIN) create, rename, recolour, delete. Deleting a tag removes it from its clients, which is a
// change to each of those clients and so lands in their change logs.
import type { AuthContext } from '../../auth/access';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { changesBetween, recordVersion, recordVersions } from '../audit';
import { toTagDto } from './dto';
import {
  deleteTag, insertTag, isDuplicateName, listTags, lockTag, removeTagFromClients, tagListsOfClientsWith, updateTag, type TagChanges,
} from './repository';

function tagName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('name must not be blank.');
  return trimmed;
}

function duplicateName(error: unknown, name: string | undefined): never {
  if (isDuplicateName(error)) throw conflict(`A tag named '${name}' already exists.`);
  throw error;
}

export class TagsService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['Tag'][]> {
    return (await listTags(this.ctx.db, auth.businessAccountId)).map(toTagDto);
  }

  async create(auth: AuthContext, input: { name: string; color?: string | null }): Promise<Schemas['Tag']> {
    const name = tagName(input.name);
    const row = await this.ctx.db.transaction(async (tx) => {
      const created = await insertTag(tx, auth.businessAccountId, name, input.color?.toLowerCase() ?? null);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Tag', itemId: created.id, event: 'create', whodunnit: auth.fullName,
        changes: { name: [null, created.name], color: [null, created.color] },
      });
      return created;
    }).catch((error) => duplicateName(error, name));
    return toTagDto(row);
  }

  async update(auth: AuthContext, id: number, input: { name?: string; color?: string | null }): Promise<Schemas['Tag']> {
    const changes: TagChanges = {};
    if (input.name !== undefined) changes.name = tagName(input.name);
    if (input.color !== undefined) changes.color = input.color?.toLowerCase() ?? null;
    const row = await this.ctx.db.transaction(async (tx) => {
      const before = await lockTag(tx, auth.businessAccountId, id);
      if (!before) return undefined;
      const after = await updateTag(tx, auth.businessAccountId, id, changes);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Tag', itemId: id, event: 'update', whodunnit: auth.fullName,
        changes: changesBetween({ name: before.name, color: before.color }, { name: after!.name, color: after!.color }),
      });
      return after;
    }).catch((error) => duplicateName(error, changes.name));
    if (!row) throw notFound('Tag');
    return toTagDto(row);
  }

  /** Deletes a tag; each client that carried it gets a change-log entry for its tag list. */
  async delete(auth: AuthContext, tagId: number): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const tag = await lockTag(tx, auth.businessAccountId, tagId);
      if (!tag) throw notFound('Tag');
      // Each affected client's tag list before and after, for the change log.
      const affected = await tagListsOfClientsWith(tx, tagId);
      await removeTagFromClients(tx, tagId);
      await deleteTag(tx, tagId);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'Tag', itemId: tagId, event: 'destroy', whodunnit: auth.fullName,
        changes: { name: [tag.name, null], color: [tag.color, null] },
      });
      await recordVersions(tx, affected.map(({ client_id, tag_ids }) => ({
        businessAccountId: auth.businessAccountId, itemType: 'Client' as const, itemId: client_id, event: 'update' as const, whodunnit: auth.fullName,
        changes: { tag_ids: [tag_ids, tag_ids.filter((id) => id !== tagId)] as [unknown, unknown] },
      })));
    });
  }
}
