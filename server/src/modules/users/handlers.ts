// Users (ADMIN): GET/POST /users, PATCH /users/{id}, POST /users/{id}/deactivate|reactivate|resend_invitation.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { UsersService, type InvitationSender } from './service';

export function usersHandlers(ctx: AppContext, invitations: InvitationSender): Handlers {
  const service = new UsersService(ctx, invitations);
  return {
    listUsers: async (request) => ({ users: await service.list(callerOf(request), queryOf(request, 'listUsers')) }),
    inviteUser: async (request, reply) => reply.code(201).send({ user: await service.invite(callerOf(request), bodyOf(request, 'inviteUser')) }),
    updateBusinessUser: async (request) => ({
      user: await service.update(callerOf(request), paramsOf(request, 'updateBusinessUser').id, bodyOf(request, 'updateBusinessUser')),
    }),
    deactivateUser: async (request) => ({ user: await service.deactivate(callerOf(request), paramsOf(request, 'deactivateUser').id) }),
    reactivateUser: async (request) => ({ user: await service.reactivate(callerOf(request), paramsOf(request, 'reactivateUser').id) }),
    resendInvitation: async (request) => ({ user: await service.resendInvitation(callerOf(request), paramsOf(request, 'resendInvitation').id) }),
  };
}
