// Model-based test of the auth machine: paths generated from the real machine's state graph
// (xstate/graph), each walked through the real React app. Every step is a user gesture or a
// server answer; after it, the app's own auth actor must be where the model says, and the
// screen must show what that state means to a user.
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { EventFromLogic } from 'xstate';
import { authMachine, type AuthSnapshot } from '../../src/machines/auth';
import { ApiError } from '../../src/api/errors';
import type { User } from '../../src/api/types';
import { PASSWORD, server, tokenFor, usersByRole } from '../component/support/fakeApi';
import { Gate } from './support/gate';
import { renderApp, useFakeApi, type RunningApp } from '../component/support/harness';
import { transitionCoveringPaths, type PathStep } from './support/paths';

type AuthEvent = EventFromLogic<typeof authMachine>;

const admin = usersByRole.ADMIN;
const renamedOnServer: User = { ...admin, first_name: 'Alexandra', full_name: 'Alexandra Taylor' };
const renamedInForm: User = { ...admin, first_name: 'Alexa', full_name: 'Alexa Taylor' };
const session = { token: tokenFor(admin), expires_at: '2030-01-01T00:00:00Z', user: admin };
const messages = {
  badLogin: 'Invalid email or password.',
  badLink: 'This login link is invalid or has expired.',
  userLoadFailed: 'Database unavailable.',
};

// The model's events; `as AuthEvent` because the done/error events of invoked actors are
// internal to XState's typings.
const events = [
  { type: 'LOGIN', credentials: { email: admin.email, password: PASSWORD } },
  { type: 'LOGIN_AS', token: 'one-time-admin' },
  { type: 'xstate.done.actor.logIn', output: session },
  { type: 'xstate.error.actor.logIn', error: new ApiError(401, { message: messages.badLogin }, '') },
  { type: 'xstate.done.actor.exchangeLoginAs', output: session },
  { type: 'xstate.error.actor.exchangeLoginAs', error: new ApiError(401, { message: messages.badLink }, '') },
  { type: 'LOAD_USER' },
  { type: 'xstate.done.actor.fetchUser', output: renamedOnServer },
  { type: 'xstate.error.actor.fetchUser', error: new ApiError(500, { message: messages.userLoadFailed }, '') },
  { type: 'USER_UPDATED', user: renamedInForm },
  { type: 'LOGOUT' },
  { type: 'UNAUTHORIZED' },
] as unknown as AuthEvent[];

// Effects are doubles during graph traversal: nothing is stored or sent while paths are computed.
const model = authMachine.provide({
  actions: { persistSession: () => {}, persistUser: () => {}, forgetSession: () => {}, revokeOnServer: () => {}, reportLoginFailure: () => {} },
});
// A path replays several gestures and server answers; on a busy two-core CI machine that takes a while.
const PATH_TIMEOUT_MS = 30_000;
const paths = transitionCoveringPaths(model, {
  events,
  input: { token: null, user: null },
  // Whose name the header shows matters only as "the one logged in with" or "another": keyed by the user itself, every
  // transition was walked again from each renamed user, and from the form's name after the server's.
  serializeState: (snapshot) => {
    const { user, ...context } = (snapshot as AuthSnapshot).context;
    return JSON.stringify({ value: snapshot.value, ...context, renamed: user && user.first_name !== admin.first_name });
  },
});

const gates = { login: new Gate(), loginAs: new Gate(), user: new Gate() };
const json = (body: object, status = 200) => () => HttpResponse.json(body, { status });

useFakeApi();

function serverWithGates() {
  server.use(
    http.post('*/api/auth/login', () => gates.login.wait()),
    http.post('*/api/auth/login_as', () => gates.loginAs.wait()),
    // Unarmed, the current-user call answers at once (the automatic call after login).
    http.get('*/api/auth/user', () => (gates.user.armed ? gates.user.wait() : HttpResponse.json({ user: admin }))),
    http.put('*/api/auth/user', async ({ request }) => {
      const body = (await request.json()) as Partial<User>;
      const first = body.first_name ?? admin.first_name;
      return HttpResponse.json({ user: { ...admin, ...body, full_name: `${first} ${admin.last_name}` } });
    }),
  );
}

async function perform(app: RunningApp, event: AuthEvent) {
  const user = userEvent.setup();
  switch (event.type) {
    case 'LOGIN': {
      if (window.location.pathname !== '/login') await user.click(await screen.findByRole('link', { name: 'Go to the login page' }));
      const email = await screen.findByLabelText('Email');
      await user.clear(email);
      await user.type(email, event.credentials.email);
      await user.clear(screen.getByLabelText('Password'));
      await user.type(screen.getByLabelText('Password'), event.credentials.password);
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      return;
    }
    case 'LOGIN_AS':
      // The operator's link is opened from an email: a fresh page load.
      app.reload(`/login-as?token=${event.token}`);
      return;
    case 'LOAD_USER':
      gates.user.arm();
      app.reload();
      return;
    case 'USER_UPDATED': {
      await user.click(await screen.findByRole('button', { name: 'Open account menu' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Settings' }));
      const firstName = await screen.findByLabelText('First name');
      await user.clear(firstName);
      await user.type(firstName, event.user.first_name);
      await user.click(screen.getByRole('button', { name: 'Save changes' }));
      return;
    }
    case 'LOGOUT':
      await user.click(await screen.findByRole('button', { name: 'Open account menu' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
      return;
    case 'UNAUTHORIZED':
      // The server stops honouring the token: the next authenticated call gets a 401.
      server.use(http.get('*/api/sync_settings', json({ message: 'Session expired.' }, 401), { once: true }));
      await act(() => app.services.api.GET('/sync_settings'));
      return;
    default:
      await answerPendingCall(event as unknown as { type: string; output?: object; error?: ApiError });
  }
}

/** A done/error event of an invoked actor: the server answers the call that is waiting. */
async function answerPendingCall(result: { type: string; output?: object; error?: ApiError }) {
  const failure = result.error;
  const answer = failure
    ? json({ message: failure.message }, failure.status)
    : json(result.type.endsWith('fetchUser') ? { user: result.output } : result.output!);
  const gate = result.type.endsWith('.logIn') ? gates.login : result.type.endsWith('exchangeLoginAs') ? gates.loginAs : gates.user;
  await waitFor(() => expect(gate.pending).toBeGreaterThan(0));
  act(() => gate.open(answer));
}

async function expectShown(app: RunningApp, expected: AuthSnapshot) {
  // The app's own actor is where the model is …
  await waitFor(() => {
    const actual = app.services.auth.getSnapshot();
    expect(actual.value).toEqual(expected.value);
    expect(actual.context).toEqual(expected.context);
  });
  // … and the screen says so.
  const { context } = expected;
  if (expected.matches({ unauthenticated: 'idle' })) {
    if (context.error) expect(await screen.findByRole('alert')).toHaveTextContent(context.error);
    else expect(await screen.findByRole('button', { name: 'Log in' })).toBeEnabled();
    expect(screen.queryByTestId('sidebar')).not.toBeInTheDocument();
  } else if (expected.matches({ unauthenticated: 'loggingIn' })) {
    expect(await screen.findByRole('button', { name: /Logging in/ })).toBeDisabled();
  } else if (expected.matches({ unauthenticated: 'exchangingLoginAs' })) {
    expect(await screen.findByText(/Checking your login link/)).toBeInTheDocument();
  } else {
    expect(await screen.findByTestId('header-first-name')).toHaveTextContent(context.user!.first_name);
    expect(screen.getByTestId('sidebar')).toBeInTheDocument();
  }
}

describe('auth machine, walked through the app', () => {
  it('generates paths that cover its transitions', () => {
    expect(paths.length).toBeGreaterThanOrEqual(8);
    const covered = new Set(paths.flatMap((path) => path.steps.map((step: PathStep<typeof authMachine>) => step.event.type)));
    expect([...covered].sort()).toEqual([...new Set(events.map((event) => event.type))].sort());
  });

  it.each(paths.map((path) => [path.description, path] as const))('%s', async (_, path) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    Object.assign(gates, { login: new Gate(), loginAs: new Gate(), user: new Gate() });
    serverWithGates();
    const app = renderApp('/login');
    try {
      await expectShown(app, app.services.auth.getSnapshot());
      for (const step of path.steps) {
        await perform(app, step.event);
        await expectShown(app, step.state);
      }
    } finally {
      app.stop();
      vi.restoreAllMocks();
    }
  }, PATH_TIMEOUT_MS);
});
