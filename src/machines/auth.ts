import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { apiClient } from '../api/session';
import { businessChoicesOf, exchangeLoginAsToken, fetchCurrentUser, logIn } from '../api/endpoints';
import { ApiError, messageOfError } from '../api/errors';
import { ROLES, type BusinessChoice, type Credentials, type Session, type User } from '../api/types';
import { endSessionOnServer } from '../lib/pendingLogouts';
import { readStored, removeStored, writeStored } from '../lib/storage';

export const AUTH_TOKEN_KEY = 'rounds.auth.token';
export const AUTH_USER_KEY = 'rounds.auth.user';

export interface AuthContext {
  token: string | null;
  user: User | null;
  /** What the last failed login / current-user call said, for the view to show. */
  error: string | null;
  /** Set when the last login's email and password open accounts in several businesses: the view asks which. */
  businessChoices?: BusinessChoice[];
}

export type AuthEvent =
  | { type: 'LOGIN'; credentials: Credentials }
  | { type: 'LOGIN_AS'; token: string }
  | { type: 'LOAD_USER' }
  /** `token` replaces the session's after a password change (the server ended the old one). */
  | { type: 'USER_UPDATED'; user: User; token?: string }
  | { type: 'LOGOUT' }
  /** The session is gone; `reason` (a deactivated account) is said on the login page. */
  | { type: 'UNAUTHORIZED'; reason?: string };

/** Without input the session is restored from localStorage (a reload). */
export interface AuthInput {
  token?: string | null;
  user?: User | null;
}

const isString = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isUser = (value: unknown): value is User =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as User).id === 'number' &&
  (ROLES as readonly string[]).includes((value as User).role);

function restoreSession(): Pick<AuthContext, 'token' | 'user'> {
  const token = readStored(AUTH_TOKEN_KEY, isString);
  return { token, user: token ? readStored(AUTH_USER_KEY, isUser) : null };
}

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    logIn: fromPromise<Session, Credentials>(({ input }) => logIn(apiClient, input)),
    exchangeLoginAs: fromPromise<Session, { token: string }>(({ input }) =>
      exchangeLoginAsToken(apiClient, input.token),
    ),
    fetchUser: fromPromise<User>(() => fetchCurrentUser(apiClient)),
  },
  actions: {
    assignSession: assign((_, params: Session) => ({ token: params.token, user: params.user, businessChoices: undefined })),
    assignUser: assign((_, params: { user: User }) => ({ user: params.user })),
    clearSession: assign({ token: null, user: null, error: null, businessChoices: undefined }),
    persistSession: (_, params: { token: string; user: User }) => {
      writeStored(AUTH_TOKEN_KEY, params.token);
      writeStored(AUTH_USER_KEY, params.user);
    },
    persistUser: (_, params: { user: User }) => writeStored(AUTH_USER_KEY, params.user),
    adoptToken: assign(({ context }, params: { token?: string }) => ({ token: params.token ?? context.token })),
    persistToken: (_, params: { token?: string }) => {
      if (params.token) writeStored(AUTH_TOKEN_KEY, params.token);
    },
    forgetSession: () => {
      removeStored(AUTH_TOKEN_KEY);
      removeStored(AUTH_USER_KEY);
    },
    /** The session is gone locally at once; on the server now, or once the network is back. */
    revokeOnServer: (_, params: { token: string | null }) => {
      if (params.token) void endSessionOnServer(params.token);
    },
    setError: assign({ error: (_, params: { error: unknown; fallback: string }) => messageOfError(params.error, params.fallback) }),
    clearError: assign({ error: null }),
    setBusinessChoices: assign({ businessChoices: (_, params: { error: unknown }) => businessChoicesOf(params.error) }),
    sayWhySessionEnded: assign((_, params: { reason?: string }) => ({ error: params.reason ?? null })),
    // The server's answer (a wrong password, a throttle, a choice of business) is only for the form to show; anything
    // else is a fault worth logging.
    reportLoginFailure: (_, params: { error: unknown }) => {
      if (!(params.error instanceof ApiError) || params.error.status >= 500) console.error('Login failed:', params.error);
    },
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
  },
}).createMachine({
  id: 'auth',
  // Input stays untyped in setup() so that createActor(authMachine) needs none (XState makes a typed input required).
  context: ({ input }) => {
    const given = input as AuthInput | undefined;
    const restored = given ? { token: given.token ?? null, user: given.user ?? null } : restoreSession();
    return { ...restored, error: null };
  },
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasToken', target: 'authenticated' }, { target: 'unauthenticated' }],
    },
    unauthenticated: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            LOGIN: { target: 'loggingIn' },
            LOGIN_AS: { target: 'exchangingLoginAs' },
          },
        },
        loggingIn: {
          entry: 'clearError',
          invoke: {
            id: 'logIn',
            src: 'logIn',
            input: ({ event }) => {
              if (event.type !== 'LOGIN') throw new Error('loggingIn is entered only by LOGIN');
              return event.credentials;
            },
            onDone: { target: '#auth.authenticated', 
              actions: [
                { type: 'assignSession', params: ({ event }) => event.output },
                { type: 'persistSession', params: ({ event }) => event.output },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'setError', params: ({ event }) => ({ error: event.error, fallback: 'An error has occurred. Could not log in.' }) },
                { type: 'setBusinessChoices', params: ({ event }) => ({ error: event.error }) },
                { type: 'reportLoginFailure', params: ({ event }) => ({ error: event.error }) },
              ],
            },
          },
        },
        exchangingLoginAs: {
          entry: 'clearError',
          invoke: {
            id: 'exchangeLoginAs',
            src: 'exchangeLoginAs',
            input: ({ event }) => {
              if (event.type !== 'LOGIN_AS') throw new Error('exchangingLoginAs is entered only by LOGIN_AS');
              return { token: event.token };
            },
            onDone: { target: '#auth.authenticated', 
              actions: [
                { type: 'assignSession', params: ({ event }) => event.output },
                { type: 'persistSession', params: ({ event }) => event.output },
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: event.error, fallback: 'This login link is invalid or has expired.' }),
              },
            },
          },
        },
      },
    },
    authenticated: {
      initial: 'idle',
      states: {
        idle: {
          on: { LOAD_USER: { target: 'loadingUser' } },
        },
        loadingUser: {
          entry: 'clearError',
          invoke: {
            id: 'fetchUser',
            src: 'fetchUser',
            onDone: {
              target: 'idle',
              actions: [
                { type: 'assignUser', params: ({ event }) => ({ user: event.output }) },
                { type: 'persistUser', params: ({ event }) => ({ user: event.output }) },
              ],
            },
            onError: {
              target: 'idle',
              actions: {
                type: 'setError',
                params: ({ event }) => ({ error: event.error, fallback: 'An error has occurred. Could not load your account.' }),
              },
            },
          },
        },
      },
      on: {
        USER_UPDATED: {
          actions: [
            { type: 'assignUser', params: ({ event }) => ({ user: event.user }) },
            { type: 'persistUser', params: ({ event }) => ({ user: event.user }) },
            { type: 'adoptToken', params: ({ event }) => ({ token: event.token }) },
            { type: 'persistToken', params: ({ event }) => ({ token: event.token }) },
          ],
        },
        LOGOUT: {
          target: 'unauthenticated',
          actions: [{ type: 'revokeOnServer', params: ({ context }) => ({ token: context.token }) }, 'clearSession', 'forgetSession'],
        },
        UNAUTHORIZED: {
          target: 'unauthenticated',
          actions: ['clearSession', 'forgetSession', { type: 'sayWhySessionEnded', params: ({ event }) => ({ reason: event.reason }) }],
        },
      },
    },
  },
});

export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

export const selectIsAuthenticated = (snapshot: AuthSnapshot) => snapshot.matches('authenticated');
export const selectIsLoggingIn = (snapshot: AuthSnapshot) =>
  snapshot.matches({ unauthenticated: 'loggingIn' }) || snapshot.matches({ unauthenticated: 'exchangingLoginAs' });
export const selectIsLoadingUser = (snapshot: AuthSnapshot) => snapshot.matches({ authenticated: 'loadingUser' });
export const selectUser = (snapshot: AuthSnapshot) => snapshot.context.user;
export const selectRole = (snapshot: AuthSnapshot) => snapshot.context.user?.role ?? null;
export const selectIsAdmin = (snapshot: AuthSnapshot) => snapshot.context.user?.role === 'ADMIN';
export const selectIsPractitioner = (snapshot: AuthSnapshot) => snapshot.context.user?.role === 'PRACTITIONER';
export const selectAuthError = (snapshot: AuthSnapshot) => snapshot.context.error;
export const selectBusinessChoices = (snapshot: AuthSnapshot) => snapshot.context.businessChoices;
