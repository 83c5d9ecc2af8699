// Tag rows as the contract's Tag.
import type { Schemas } from '../../http/contract';
import type { TagRow } from './repository';

export const toTagDto = (t: Pick<TagRow, 'id' | 'name' | 'color'>): Schemas['Tag'] => ({ id: t.id, name: t.name, color: t.color || '#000000' });
