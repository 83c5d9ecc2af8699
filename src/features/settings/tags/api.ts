import type { ApiClient } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { ensureOk } from '../../../api/errors';
import type { Tag } from '../../../entities/clients/api';

export interface TagChanges {
  name?: string;
  color?: string | null;
}

export async function createTag(api: ApiClient, name: string, color: string | null): Promise<Tag> {
  const result = await api.POST('/tags', { body: { name, color } });
  return unwrap(result, 'An error has occurred. Could not create the tag.').tag;
}

export async function updateTag(api: ApiClient, id: number, changes: TagChanges): Promise<Tag> {
  const result = await api.PUT('/tags/{id}', { params: { path: { id } }, body: changes });
  return unwrap(result, 'An error has occurred. Could not update the tag.').tag;
}

export async function deleteTag(api: ApiClient, id: number): Promise<void> {
  const result = await api.DELETE('/tags/{id}', { params: { path: { id } } });
  ensureOk(result, 'An error has occurred. Could not delete the tag.');
}
