import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import type { ProviderAccount } from '../api/types';
import {
  ACCOUNT_NOT_ACTIVE_MESSAGE,
  ACCOUNT_SETUP_INCOMPLETE_MESSAGE,
  ACCOUNT_SETUP_PATH,
  PAYMENT_REQUIRED_PATH,
  startUpMachine,
  type StartUpEmitted,
} from './startUp';

const account = (status: ProviderAccount['status']): ProviderAccount => ({
  id: 1,
  provider: 'cliniko',
  status,
  api_key_last4: '1234',
  last_error: null,
  connected_at: null,
});

function start(fetchProviderAccount: () => Promise<ProviderAccount | null>) {
  let calls = 0;
  const machine = startUpMachine.provide({
    actors: {
      fetchProviderAccount: fromPromise(() => {
        calls += 1;
        return fetchProviderAccount();
      }),
    },
  });
  const actor = createActor(machine);
  const emitted: StartUpEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  actor.start();
  return { actor, emitted, calls: () => calls };
}

const settled = (actor: ReturnType<typeof start>['actor']) =>
  waitFor(actor, (snapshot) => !snapshot.matches({ session: 'loading' }) && !snapshot.matches('unauthenticated'));

describe('startUp machine', () => {
  it('loads nothing while unauthenticated', () => {
    const { actor, emitted, calls } = start(() => Promise.resolve(account('ACTIVE')));
    expect(actor.getSnapshot().value).toBe('unauthenticated');
    actor.send({ type: 'RELOAD' });
    expect(calls()).toBe(0);
    expect(emitted).toEqual([]);
  });

  it('once authenticated, asks for the user and loads the provider account', async () => {
    const { actor, emitted, calls } = start(() => Promise.resolve(account('ACTIVE')));
    actor.send({ type: 'AUTHENTICATED' });
    expect(emitted).toContainEqual({ type: 'loadUser' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.providerAccount?.status).toBe('ACTIVE');
    expect(calls()).toBe(1);
    expect(emitted.filter((event) => event.type === 'navigate')).toEqual([]);
  });

  it.each([
    ['there is no provider account', () => Promise.resolve(null)],
    ['the provider account is INITIALIZING', () => Promise.resolve(account('INITIALIZING'))],
  ])('goes to account setup when %s', async (_, fetch) => {
    const { actor, emitted } = start(fetch);
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: 'accountSetupRequired' })).toBe(true);
    expect(emitted).toContainEqual({ type: 'navigate', to: ACCOUNT_SETUP_PATH });
  });

  it.each(['DISCONNECTED', 'CONNECTION_ERROR'] as const)('does not force setup for a %s account', async (status) => {
    const { actor } = start(() => Promise.resolve(account(status)));
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: 'ready' })).toBe(true);
  });

  it('goes to account setup with a warning when the server says PROVIDER_ACCOUNT_NOT_SETUP', async () => {
    const { actor, emitted } = start(() =>
      Promise.reject(new ApiError(403, { message: 'Set up first', code: 'PROVIDER_ACCOUNT_NOT_SETUP' }, 'x')),
    );
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: 'accountSetupRequired' })).toBe(true);
    expect(emitted).toContainEqual({ type: 'notice', text: ACCOUNT_SETUP_INCOMPLETE_MESSAGE, kind: 'warning' });
    expect(emitted).toContainEqual({ type: 'navigate', to: ACCOUNT_SETUP_PATH });
  });

  it('shows a danger notice once when the account is not active', async () => {
    const { actor, emitted } = start(() =>
      Promise.reject(new ApiError(403, { message: 'No', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' }, 'x')),
    );
    actor.send({ type: 'AUTHENTICATED' });
    // The middleware reports the same response's code while the call is in flight.
    actor.send({ type: 'ACCOUNT_CODE', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' });
    await settled(actor);
    expect(emitted.filter((event) => event.type === 'notice')).toEqual([
      { type: 'notice', text: ACCOUNT_NOT_ACTIVE_MESSAGE, kind: 'danger' },
    ]);
  });

  it("reports any other failure with the server's message", async () => {
    const { actor, emitted } = start(() => Promise.reject(new ApiError(500, { message: 'Database down' }, 'x')));
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    expect(actor.getSnapshot().matches({ session: 'failed' })).toBe(true);
    expect(emitted).toContainEqual({ type: 'notice', text: 'Database down', kind: 'danger' });
  });

  it('a later response saying NOT_SETUP sends the user to account setup', async () => {
    const { actor, emitted } = start(() => Promise.resolve(account('ACTIVE')));
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    actor.send({ type: 'ACCOUNT_CODE', code: 'PROVIDER_ACCOUNT_NOT_SETUP' });
    expect(actor.getSnapshot().matches({ session: 'accountSetupRequired' })).toBe(true);
    expect(emitted).toContainEqual({ type: 'navigate', to: ACCOUNT_SETUP_PATH });
  });

  it('forgets the account on logout and loads again on the next login', async () => {
    const { actor, calls } = start(() => Promise.resolve(account('ACTIVE')));
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    actor.send({ type: 'LOGGED_OUT' });
    expect(actor.getSnapshot().value).toBe('unauthenticated');
    expect(actor.getSnapshot().context.providerAccount).toBeNull();
    actor.send({ type: 'AUTHENTICATED' });
    await settled(actor);
    expect(calls()).toBe(2);
  });

  describe('payment required (40003)', () => {
    const paymentRequired = new ApiError(403, { message: 'A payment method is required to keep using Rounds.', code: '40003' }, '');
    const navigations = (emitted: StartUpEmitted[]) => emitted.filter((event) => event.type === 'navigate');

    it('takes the user to the payment-required page when start-up’s own call answers 40003, without a toast', async () => {
      const { actor, emitted } = start(() => Promise.reject(paymentRequired));
      actor.send({ type: 'AUTHENTICATED' });
      await settled(actor);
      expect(actor.getSnapshot().matches({ session: 'paymentRequired' })).toBe(true);
      expect(navigations(emitted)).toEqual([{ type: 'navigate', to: PAYMENT_REQUIRED_PATH }]);
      expect(emitted.filter((event) => event.type === 'notice')).toEqual([]);
    });

    it('takes a working user there when any later call answers 40003, once', async () => {
      const { actor, emitted } = start(() => Promise.resolve(account('ACTIVE')));
      actor.send({ type: 'AUTHENTICATED' });
      await settled(actor);
      actor.send({ type: 'ACCOUNT_CODE', code: '40003' });
      actor.send({ type: 'ACCOUNT_CODE', code: '40003' });
      expect(actor.getSnapshot().matches({ session: 'paymentRequired' })).toBe(true);
      expect(navigations(emitted)).toEqual([{ type: 'navigate', to: PAYMENT_REQUIRED_PATH }]);
    });

    it('wins over account setup: a business that must pay cannot set up either', async () => {
      const { actor } = start(() => Promise.resolve(null));
      actor.send({ type: 'AUTHENTICATED' });
      await settled(actor);
      expect(actor.getSnapshot().matches({ session: 'accountSetupRequired' })).toBe(true);
      actor.send({ type: 'ACCOUNT_CODE', code: '40003' });
      expect(actor.getSnapshot().matches({ session: 'paymentRequired' })).toBe(true);
    });

    it('starts over on RELOAD once a payment method is added, and forgets it on logout', async () => {
      let answer: () => Promise<ProviderAccount | null> = () => Promise.reject(paymentRequired);
      const { actor } = start(() => answer());
      actor.send({ type: 'AUTHENTICATED' });
      await settled(actor);
      answer = () => Promise.resolve(account('ACTIVE'));
      actor.send({ type: 'RELOAD' });
      await settled(actor);
      expect(actor.getSnapshot().matches({ session: 'ready' })).toBe(true);
      actor.send({ type: 'ACCOUNT_CODE', code: '40003' });
      actor.send({ type: 'LOGGED_OUT' });
      expect(actor.getSnapshot().value).toBe('unauthenticated');
    });
  });
});
