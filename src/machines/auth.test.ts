import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import type { Credentials, Session, User } from '../api/types';
import { installMemoryStorage, type MemoryStorage } from '../testing/memoryStorage';
import {
  AUTH_TOKEN_KEY,
  AUTH_USER_KEY,
  authMachine,
  selectAuthError,
  selectIsAdmin,
  selectIsAuthenticated,
  selectIsLoadingUser,
  selectIsLoggingIn,
  selectIsPractitioner,
} from './auth';
import { makeUser } from '../testing/users';

const admin = makeUser('ADMIN');

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = installMemoryStorage();
});
afterEach(() => vi.restoreAllMocks());

function machineWith(logIn: (credentials: Credentials) => Promise<Session>, extra: { fetchUser?: () => Promise<User> } = {}) {
  const revoked: string[] = [];
  const machine = authMachine.provide({
    actors: {
      logIn: fromPromise<Session, Credentials>(({ input }) => logIn(input)),
      fetchUser: fromPromise<User>(() => (extra.fetchUser ? extra.fetchUser() : Promise.resolve(admin))),
    },
    actions: {
      revokeOnServer: (_, params: { token: string | null }) => {
        if (params.token) revoked.push(params.token);
      },
    },
  });
  return { machine, revoked };
}

describe('auth machine', () => {
  it('starts logged out when nothing is stored', () => {
    const actor = createActor(authMachine).start();
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ token: null, user: null, error: null });
  });

  it('restores the token and user stored by a previous page load', () => {
    storage.setItem(AUTH_TOKEN_KEY, JSON.stringify('tok-1'));
    storage.setItem(AUTH_USER_KEY, JSON.stringify(admin));
    const snapshot = createActor(authMachine).start().getSnapshot();
    expect(selectIsAuthenticated(snapshot)).toBe(true);
    expect(snapshot.context.user).toEqual(admin);
  });

  it('ignores a stored user without a token', () => {
    storage.setItem(AUTH_USER_KEY, JSON.stringify(admin));
    const snapshot = createActor(authMachine).start().getSnapshot();
    expect(selectIsAuthenticated(snapshot)).toBe(false);
    expect(snapshot.context.user).toBeNull();
  });

  it('shows a loading flag while logging in, then stores the session', async () => {
    const pending = deferred<Session>();
    const { machine } = machineWith(() => pending.promise);
    const actor = createActor(machine).start();
    actor.send({ type: 'LOGIN', credentials: { email: 'alex@demo.test', password: 'secret' } });
    expect(selectIsLoggingIn(actor.getSnapshot())).toBe(true);

    pending.resolve({ token: 'tok-2', expires_at: '2030-01-01T00:00:00Z', user: admin });
    await waitFor(actor, selectIsAuthenticated);
    expect(selectIsLoggingIn(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.token).toBe('tok-2');
    expect(JSON.parse(storage.getItem(AUTH_TOKEN_KEY)!)).toBe('tok-2');
    expect(JSON.parse(storage.getItem(AUTH_USER_KEY)!)).toEqual(admin);
  });

  it("keeps the server's message when login fails, and logs nothing: a wrong password is not a fault", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { machine } = machineWith(() => Promise.reject(new ApiError(401, { message: 'Invalid email or password.' }, 'x')));
    const actor = createActor(machine).start();
    actor.send({ type: 'LOGIN', credentials: { email: 'a@b.c', password: 'wrong' } });
    await waitFor(actor, (snapshot) => snapshot.matches({ unauthenticated: 'idle' }));
    expect(selectAuthError(actor.getSnapshot())).toBe('Invalid email or password.');
    expect(consoleError).not.toHaveBeenCalled();
    expect(storage.getItem(AUTH_TOKEN_KEY)).toBeNull();
  });

  it('falls back to a generic message when the failure carries none, and logs that fault', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { machine } = machineWith(() => Promise.reject(new TypeError('fetch failed')));
    const actor = createActor(machine).start();
    actor.send({ type: 'LOGIN', credentials: { email: 'a@b.c', password: 'x' } });
    await waitFor(actor, (snapshot) => snapshot.context.error !== null);
    expect(selectAuthError(actor.getSnapshot())).toBe('An error has occurred. Could not log in.');
    expect(consoleError).toHaveBeenCalled();
  });

  it('flags the current-user call while it runs and stores the fresh user', async () => {
    const pending = deferred<User>();
    const { machine } = machineWith(() => Promise.reject(new Error('unused')), { fetchUser: () => pending.promise });
    const actor = createActor(machine, { input: { token: 'tok', user: admin } }).start();
    actor.send({ type: 'LOAD_USER' });
    expect(selectIsLoadingUser(actor.getSnapshot())).toBe(true);
    const renamed = { ...admin, first_name: 'Alexandra' };
    pending.resolve(renamed);
    await waitFor(actor, (snapshot) => !selectIsLoadingUser(snapshot));
    expect(actor.getSnapshot().context.user?.first_name).toBe('Alexandra');
    expect(JSON.parse(storage.getItem(AUTH_USER_KEY)!).first_name).toBe('Alexandra');
  });

  it('logout clears token and user, in memory and in storage, and revokes the token', () => {
    storage.setItem(AUTH_TOKEN_KEY, JSON.stringify('tok-3'));
    storage.setItem(AUTH_USER_KEY, JSON.stringify(admin));
    const { machine, revoked } = machineWith(() => Promise.reject(new Error('unused')));
    const actor = createActor(machine).start();
    actor.send({ type: 'LOGOUT' });
    const snapshot = actor.getSnapshot();
    expect(selectIsAuthenticated(snapshot)).toBe(false);
    expect(snapshot.context.token).toBeNull();
    expect(snapshot.context.user).toBeNull();
    expect(storage.length).toBe(0);
    expect(revoked).toEqual(['tok-3']);
  });

  it('a 401 (UNAUTHORIZED) ends the session without calling the server again', () => {
    const { machine, revoked } = machineWith(() => Promise.reject(new Error('unused')));
    const actor = createActor(machine, { input: { token: 'expired', user: admin } }).start();
    actor.send({ type: 'UNAUTHORIZED' });
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.token).toBeNull();
    expect(revoked).toEqual([]);
  });

  it('after a password change it uses and stores the new token the server answered; a name change keeps the token', () => {
    storage.setItem(AUTH_TOKEN_KEY, JSON.stringify('tok-old'));
    storage.setItem(AUTH_USER_KEY, JSON.stringify(admin));
    const actor = createActor(authMachine).start();
    actor.send({ type: 'USER_UPDATED', user: { ...admin, first_name: 'Renamed' } });
    expect(actor.getSnapshot().context.token).toBe('tok-old');
    actor.send({ type: 'USER_UPDATED', user: admin, token: 'tok-rotated' });
    expect(actor.getSnapshot().context.token).toBe('tok-rotated');
    expect(JSON.parse(storage.getItem(AUTH_TOKEN_KEY)!)).toBe('tok-rotated');
    expect(selectIsAuthenticated(actor.getSnapshot())).toBe(true);
  });

  it('derives the admin and practitioner checks from the user', () => {
    const asAdmin = createActor(authMachine, { input: { token: 't', user: admin } }).start().getSnapshot();
    const asPractitioner = createActor(authMachine, { input: { token: 't', user: makeUser('PRACTITIONER') } }).start().getSnapshot();
    const asStaff = createActor(authMachine, { input: { token: 't', user: makeUser('REGULAR_USER') } }).start().getSnapshot();
    expect([selectIsAdmin(asAdmin), selectIsPractitioner(asAdmin)]).toEqual([true, false]);
    expect([selectIsAdmin(asPractitioner), selectIsPractitioner(asPractitioner)]).toEqual([false, true]);
    expect([selectIsAdmin(asStaff), selectIsPractitioner(asStaff)]).toEqual([false, false]);
  });
});
