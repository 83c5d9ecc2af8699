import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { apiClient, sessionQueryClient } from '../api/session';
import { providerAccountQueries } from '../api/queries';
import { ApiError, isNotActiveCode, isNotSetUpCode, isPaymentRequiredCode, messageOfError } from '../api/errors';
import type { ProviderAccount } from '../api/types';

export const ACCOUNT_SETUP_PATH = '/settings/account-setup';
/** Where every user goes while the business needs a payment method (40003): admins on to Subscription info. */
export const PAYMENT_REQUIRED_PATH = '/payment-required';
export const ACCOUNT_NOT_ACTIVE_MESSAGE = 'The account is not active.';
export const ACCOUNT_SETUP_INCOMPLETE_MESSAGE = 'The account setup is not complete.';
const PROVIDER_ACCOUNT_FALLBACK = 'An error has occurred. Could not load the provider account.';

export interface StartUpContext {
  providerAccount: ProviderAccount | null;
  error: string | null;
}

export type StartUpEvent =
  /** The auth actor holds a token (login, or a reload with a stored session). */
  | { type: 'AUTHENTICATED' }
  | { type: 'LOGGED_OUT' }
  /** Some API response carried an account code (PROVIDER_ACCOUNT_NOT_SETUP: go to account setup; 40003: payment required). */
  | { type: 'ACCOUNT_CODE'; code: string }
  /** Account setup or the subscription may have changed: load the provider account again. */
  | { type: 'RELOAD' };

/** What start-up asks of the rest of the app; the app listens with `actor.on(...)`. */
export type StartUpEmitted =
  | { type: 'loadUser' }
  | { type: 'navigate'; to: string }
  | { type: 'notice'; text: string; kind: 'danger' | 'warning' };

export const startUpMachine = setup({
  types: {
    context: {} as StartUpContext,
    events: {} as StartUpEvent,
    emitted: {} as StartUpEmitted,
  },
  actors: {
    // Through the query the pages read, so that there is one read and one cached copy: asked afresh at every sign-in
    // and RELOAD (joining a request already under way), and not retried (each answer decides where the user goes).
    fetchProviderAccount: fromPromise<ProviderAccount | null>(() =>
      sessionQueryClient().fetchQuery({ ...providerAccountQueries.current(apiClient), staleTime: 0, retry: false }),
    ),
  },
  actions: {
    requestUser: emit({ type: 'loadUser' }),
    goToAccountSetup: emit({ type: 'navigate', to: ACCOUNT_SETUP_PATH }),
    goToPaymentRequired: emit({ type: 'navigate', to: PAYMENT_REQUIRED_PATH }),
    warnSetupIncomplete: emit({ type: 'notice', text: ACCOUNT_SETUP_INCOMPLETE_MESSAGE, kind: 'warning' }),
    warnNotActive: emit({ type: 'notice', text: ACCOUNT_NOT_ACTIVE_MESSAGE, kind: 'danger' }),
    reportLoadFailure: emit((_, params: { error: unknown }) => ({
      type: 'notice' as const,
      text: messageOfError(params.error, PROVIDER_ACCOUNT_FALLBACK),
      kind: 'danger' as const,
    })),
    assignProviderAccount: assign((_, params: { providerAccount: ProviderAccount | null }) => ({
      providerAccount: params.providerAccount,
      error: null,
    })),
    assignError: assign((_, params: { error: unknown }) => ({
      error: messageOfError(params.error, PROVIDER_ACCOUNT_FALLBACK),
    })),
    forgetAccount: assign({ providerAccount: null, error: null }),
  },
  guards: {
    needsSetup: (_, params: { providerAccount: ProviderAccount | null }) =>
      params.providerAccount === null || params.providerAccount.status === 'INITIALIZING',
    errorSaysNotSetUp: (_, params: { error: unknown }) =>
      params.error instanceof ApiError && isNotSetUpCode(params.error.code),
    errorSaysNotActive: (_, params: { error: unknown }) =>
      params.error instanceof ApiError && isNotActiveCode(params.error.code),
    errorSaysPaymentRequired: (_, params: { error: unknown }) =>
      params.error instanceof ApiError && isPaymentRequiredCode(params.error.code),
    codeSaysNotSetUp: (_, params: { code: string }) => isNotSetUpCode(params.code),
    codeSaysPaymentRequired: (_, params: { code: string }) => isPaymentRequiredCode(params.code),
    codeSaysNotActive: (_, params: { code: string }) => isNotActiveCode(params.code),
  },
}).createMachine({
  id: 'startUp',
  context: { providerAccount: null, error: null },
  initial: 'unauthenticated',
  states: {
    unauthenticated: {
      on: { AUTHENTICATED: 'session' },
    },
    session: {
      initial: 'loading',
      on: {
        LOGGED_OUT: { target: 'unauthenticated', actions: 'forgetAccount' },
        RELOAD: '.loading',
        ACCOUNT_CODE: [
          {
            guard: { type: 'codeSaysPaymentRequired', params: ({ event }) => ({ code: event.code }) },
            target: '.paymentRequired',
          },
          {
            guard: { type: 'codeSaysNotSetUp', params: ({ event }) => ({ code: event.code }) },
            target: '.accountSetupRequired',
            actions: 'warnSetupIncomplete',
          },
          {
            guard: { type: 'codeSaysNotActive', params: ({ event }) => ({ code: event.code }) },
            actions: 'warnNotActive',
          },
        ],
      },
      states: {
        loading: {
          entry: 'requestUser',
          invoke: {
            id: 'fetchProviderAccount',
            src: 'fetchProviderAccount',
            onDone: [
              {
                guard: { type: 'needsSetup', params: ({ event }) => ({ providerAccount: event.output }) },
                target: 'accountSetupRequired',
                actions: { type: 'assignProviderAccount', params: ({ event }) => ({ providerAccount: event.output }) },
              },
              {
                target: 'ready',
                actions: { type: 'assignProviderAccount', params: ({ event }) => ({ providerAccount: event.output }) },
              },
            ],
            onError: [
              {
                guard: { type: 'errorSaysPaymentRequired', params: ({ event }) => ({ error: event.error }) },
                target: 'paymentRequired',
              },
              {
                guard: { type: 'errorSaysNotSetUp', params: ({ event }) => ({ error: event.error }) },
                target: 'accountSetupRequired',
                actions: 'warnSetupIncomplete',
              },
              {
                guard: { type: 'errorSaysNotActive', params: ({ event }) => ({ error: event.error }) },
                target: 'ready',
                actions: 'warnNotActive',
              },
              {
                target: 'failed',
                actions: [
                  { type: 'assignError', params: ({ event }) => ({ error: event.error }) },
                  { type: 'reportLoadFailure', params: ({ event }) => ({ error: event.error }) },
                ],
              },
            ],
          },
          // The provider-account call's own answer is handled by onError above; the code the
          // middleware reports for that same response must not toast twice.
          on: { ACCOUNT_CODE: {} },
        },
        ready: {},
        accountSetupRequired: {
          entry: 'goToAccountSetup',
          on: {
            ACCOUNT_CODE: {
              guard: { type: 'codeSaysNotActive', params: ({ event }) => ({ code: event.code }) },
              actions: 'warnNotActive',
            },
          },
        },
        failed: {},
        // The business needs a payment method: every call but a few answers 40003. The route guard keeps users on
        // the pages that fix it, so further 40003 answers change nothing; RELOAD (a payment method added) starts over.
        paymentRequired: {
          entry: 'goToPaymentRequired',
          on: { ACCOUNT_CODE: {} },
        },
      },
    },
  },
});

export type StartUpSnapshot = SnapshotFrom<typeof startUpMachine>;

export const selectPaymentRequired = (snapshot: StartUpSnapshot): boolean => snapshot.matches({ session: 'paymentRequired' });
