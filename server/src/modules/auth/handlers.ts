import { callerOf } from '../../auth/access';
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { findUserById, toUserDto } from '../users/repository';
import { unauthenticated } from '../../http/errors';
import type { AuthService } from './service';

export function authHandlers(ctx: AppContext, auth: AuthService): Handlers {
  return {
    login: async (request) => {
      const { email, password } = bodyOf(request, 'login');
      return auth.login(email, password, request.ip);
    },
    logout: async (request, reply) => {
      await auth.logout(callerOf(request));
      return reply.code(204).send();
    },
    getCurrentUser: async (request) => {
      const found = await findUserById(ctx.db, callerOf(request).userId);
      if (!found) throw unauthenticated();
      return { user: toUserDto(found) };
    },
    updateCurrentUser: async (request) => ({ user: await auth.updateAccount(callerOf(request), bodyOf(request, 'updateCurrentUser')) }),
    requestPasswordReset: async (request, reply) => {
      await auth.requestPasswordReset(bodyOf(request, 'requestPasswordReset').email, request.ip);
      return reply.code(202).send({ message: 'If an account uses that email, a link to reset its password is on its way.' });
    },
    confirmPasswordReset: async (request) => {
      const { token, password } = bodyOf(request, 'confirmPasswordReset');
      await auth.confirmPasswordReset(token, password);
      return { message: 'Your password has been changed. You can now log in.' };
    },
    exchangeLoginAs: async (request) => auth.exchangeLoginAs(bodyOf(request, 'exchangeLoginAs').token),
    getConfig: async () => ({
      product_name: 'Rounds',
      google_maps_api_key: ctx.config.googleMapsApiKey,
      help_url: ctx.config.helpUrl,
    }),
  };
}
