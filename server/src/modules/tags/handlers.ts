// Tags: GET /tags/all, and (ADMIN) create, rename, recolour, delete.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { TagsService } from './service';

export function tagsHandlers(ctx: AppContext): Handlers {
  const service = new TagsService(ctx);
  return {
    listAllTags: async (request) => ({ tags: await service.list(callerOf(request)) }),
    createTag: async (request, reply) => reply.code(201).send({ tag: await service.create(callerOf(request), bodyOf(request, 'createTag')) }),
    updateTag: async (request) => ({ tag: await service.update(callerOf(request), paramsOf(request, 'updateTag').id, bodyOf(request, 'updateTag')) }),
    deleteTag: async (request, reply) => {
      await service.delete(callerOf(request), paramsOf(request, 'deleteTag').id);
      return reply.code(204).send();
    },
  };
}
