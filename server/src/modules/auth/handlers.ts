import { callerOf } from '../../auth/access';
import { bodyOf, type Handlers } from '../../http/contract';
import type { AuthService } from './service';

export function authHandlers(auth: AuthService): Handlers {
  return {
    login: async (request, reply) => {
      const { email, password, business_account_id: businessAccountId } = bodyOf(request, 'login');
      const answer = await auth.login(email, password, request.ip, businessAccountId);
      if (!('businesses' in answer)) return answer;
      return reply.code(409).send({
        message: 'Your email and password open accounts at several care providers: choose which one to log in to.',
        code: 'CHOOSE_BUSINESS', businesses: answer.businesses,
      });
    },
    logout: async (request, reply) => {
      await auth.logout(callerOf(request));
      return reply.code(204).send();
    },
    getCurrentUser: async (request) => ({ user: await auth.currentUser(callerOf(request)) }),
    updateCurrentUser: async (request) => auth.updateAccount(callerOf(request), bodyOf(request, 'updateCurrentUser')),
    requestPasswordReset: async (request, reply) => {
      await auth.requestPasswordReset(bodyOf(request, 'requestPasswordReset').email, request.ip);
      return reply.code(202).send({ message: 'If an account uses that email, a link to reset its password is on its way.' });
    },
    confirmPasswordReset: async (request) => {
      const { token, password } = bodyOf(request, 'confirmPasswordReset');
      await auth.confirmPasswordReset(token, password);
      return { message: 'Your password has been changed. You can now log in.' };
    },
    checkInvitation: async (request) => auth.checkInvitation(bodyOf(request, 'checkInvitation').token),
    acceptInvitation: async (request) => {
      const { token, password } = bodyOf(request, 'acceptInvitation');
      return auth.acceptInvitation(token, password);
    },
    exchangeLoginAs: async (request) => auth.exchangeLoginAs(bodyOf(request, 'exchangeLoginAs').token),
  };
}
