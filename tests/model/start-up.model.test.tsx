// Model-based test of the start-up machine: paths generated from its real state graph, each
// walked through the real app. Logging in, logging out and server answers drive it; after each
// step the app's own start-up actor must match the model and the screen must show the state.
import { describe, expect, it } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { EventFromLogic } from 'xstate';
import {
  ACCOUNT_NOT_ACTIVE_MESSAGE,
  ACCOUNT_SETUP_INCOMPLETE_MESSAGE,
  ACCOUNT_SETUP_PATH,
  startUpMachine,
  type StartUpSnapshot,
} from '../../src/machines/startUp';
import { ApiError } from '../../src/api/errors';
import type { ProviderAccount } from '../../src/api/types';
import { activeAccount, PASSWORD, server, subscriptionOf, usersByRole } from '../component/support/fakeApi';
import { Gate } from './support/gate';
import { renderApp, useFakeApi, type RunningApp } from '../component/support/harness';
import { transitionCoveringPaths } from './support/paths';

type StartUpEvent = EventFromLogic<typeof startUpMachine>;

const initializing: ProviderAccount = { ...activeAccount, status: 'INITIALIZING' };
const notSetUp = new ApiError(403, { message: 'The account setup is not complete.', code: 'PROVIDER_ACCOUNT_NOT_SETUP' }, '');
const notActive = new ApiError(403, { message: 'The account is not active.', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' }, '');
const broken = new ApiError(500, { message: 'Database unavailable.' }, '');
const paymentRequired = new ApiError(403, { message: 'A payment method is required to keep using Rounds.', code: '40003' }, '');

// RELOAD is left out: the provider-account and account-setup pages send it once the account has
// changed, and their own tests cover that.
const events = [
  { type: 'AUTHENTICATED' },
  { type: 'LOGGED_OUT' },
  { type: 'ACCOUNT_CODE', code: 'PROVIDER_ACCOUNT_NOT_SETUP' },
  { type: 'ACCOUNT_CODE', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' },
  { type: 'ACCOUNT_CODE', code: '40003' },
  { type: 'xstate.done.actor.fetchProviderAccount', output: activeAccount },
  { type: 'xstate.done.actor.fetchProviderAccount', output: null },
  { type: 'xstate.done.actor.fetchProviderAccount', output: initializing },
  { type: 'xstate.error.actor.fetchProviderAccount', error: notSetUp },
  { type: 'xstate.error.actor.fetchProviderAccount', error: notActive },
  { type: 'xstate.error.actor.fetchProviderAccount', error: broken },
  { type: 'xstate.error.actor.fetchProviderAccount', error: paymentRequired },
] as unknown as StartUpEvent[];

// A path replays several gestures and server answers; on a busy two-core CI machine that takes a while.
const PATH_TIMEOUT_MS = 30_000;
const paths = transitionCoveringPaths(startUpMachine, { events });
const providerGate = new Gate();
const json = (body: object | null, status = 200) => () => HttpResponse.json(body, { status });

useFakeApi();

/** The toast a step must raise, if any: the account-setup warning for a provider-account code, else the server's message. */
function noticeOf(event: StartUpEvent): string | null {
  const code = 'code' in event ? event.code : ((event as { error?: ApiError }).error?.code ?? null);
  if (code === 'PROVIDER_ACCOUNT_NOT_SETUP') return ACCOUNT_SETUP_INCOMPLETE_MESSAGE;
  if (code === 'PROVIDER_ACCOUNT_NOT_ACTIVE') return ACCOUNT_NOT_ACTIVE_MESSAGE;
  // Payment required says so on the page it leads to, not in a toast.
  if (code === '40003') return null;
  return (event as { error?: ApiError }).error?.message ?? null;
}

async function perform(app: RunningApp, event: StartUpEvent) {
  const user = userEvent.setup();
  switch (event.type) {
    case 'AUTHENTICATED': {
      const admin = usersByRole.ADMIN;
      await user.type(await screen.findByLabelText('Email'), admin.email);
      await user.type(screen.getByLabelText('Password'), PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      return;
    }
    case 'LOGGED_OUT':
      await user.click(await screen.findByRole('button', { name: 'Open account menu' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
      return;
    case 'ACCOUNT_CODE': {
      // Some later call is refused with the code.
      const error = event.code === 'PROVIDER_ACCOUNT_NOT_SETUP' ? notSetUp : event.code === '40003' ? paymentRequired : notActive;
      server.use(http.get('*/api/sync_settings', json(error.body as object, error.status), { once: true }));
      await act(() => app.services.api.GET('/sync_settings'));
      return;
    }
    default: {
      const result = event as unknown as { output?: ProviderAccount | null; error?: ApiError };
      const failure = result.error;
      const answer = failure ? json(failure.body as object, failure.status) : json({ provider_account: result.output ?? null });
      await waitFor(() => expect(providerGate.pending).toBeGreaterThan(0));
      act(() => providerGate.open(answer));
    }
  }
}

async function expectShown(app: RunningApp, expected: StartUpSnapshot) {
  await waitFor(() => {
    const actual = app.services.startUp.getSnapshot();
    expect(actual.value).toEqual(expected.value);
    expect(actual.context).toEqual(expected.context);
  });
  if (expected.matches('unauthenticated')) {
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeInTheDocument();
  } else if (expected.matches({ session: 'paymentRequired' })) {
    // The admin of the model is taken on to Subscription info, with the action that fixes it.
    await waitFor(() => expect(window.location.pathname).toBe('/settings/subscription'));
    await waitFor(() => expect(document.title).toBe('Subscription info - Rounds'));
    expect(await screen.findByTestId('payment-required-callout')).toHaveTextContent('A payment method is required');
  } else if (expected.matches({ session: 'accountSetupRequired' })) {
    await waitFor(() => expect(window.location.pathname).toBe(ACCOUNT_SETUP_PATH));
    await waitFor(() => expect(document.title).toBe('Account setup - Rounds'));
  } else {
    // loading, ready and failed leave the user where they were going.
    expect(window.location.pathname).toBe('/dashboard');
    expect(await screen.findByTestId('dashboard-greeting')).toBeInTheDocument();
  }
}

describe('start-up machine, walked through the app', () => {
  it('generates paths that cover its transitions', () => {
    expect(paths.length).toBeGreaterThanOrEqual(6);
    const targets = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    for (const state of ['unauthenticated', 'loading', 'ready', 'accountSetupRequired', 'failed', 'paymentRequired']) {
      expect([...targets].some((value) => value.includes(state))).toBe(true);
    }
  });

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
    server.use(
      // Start-up's own load waits at the gate. Other callers (the account-setup page) are told
      // there is no account, so no page changes the state behind the model's back (RELOAD).
      http.get('*/api/provider_account/current', () => (providerGate.armed ? providerGate.wait() : HttpResponse.json({ provider_account: null }))),
      // Subscription info agrees that payment is required (it would RELOAD start-up once it is not).
      http.get('*/api/subscription', () => HttpResponse.json({ subscription: subscriptionOf({ payment_required: true, trial_ends_at: '2026-11-01T00:00:00Z' }) })),
    );
    const app = renderApp('/login');
    try {
      await expectShown(app, app.services.startUp.getSnapshot());
      for (const step of path.steps) {
        // Every start-up load waits for the answer the path gives it.
        if (step.event.type === 'AUTHENTICATED') providerGate.arm();
        await perform(app, step.event);
        await expectShown(app, step.state);
        const notice = noticeOf(step.event);
        if (notice) {
          await waitFor(() => expect(screen.getAllByTestId('toast').map((toast) => toast.textContent)).toContain(notice));
        }
      }
    } finally {
      app.stop();
      providerGate.open(json({ provider_account: activeAccount }));
    }
  }, PATH_TIMEOUT_MS);
});
