import { describe, expect, it, vi } from 'vitest';
import { createApiClient, type SessionHooks } from './client';
import { fetchCurrentProviderAccount, logIn } from './endpoints';
import { ApiError } from './errors';

/** A client whose "server" answers every request with the given status and body. */
function clientAnswering(status: number, body: unknown, token: string | null = 'tok-1') {
  const seen: Request[] = [];
  const hooks: Required<SessionHooks> = {
    getToken: () => token,
    onUnauthorized: vi.fn(),
    onForbidden: vi.fn(),
    onAccountCode: vi.fn(),
  };
  const client = createApiClient(hooks, {
    baseUrl: 'http://127.0.0.1:8000/api',
    fetch: async (request: Request) => {
      seen.push(request);
      return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, hooks, seen };
}

describe('API client middleware', () => {
  it('sends the bearer token of the current session', async () => {
    const { client, seen } = clientAnswering(200, { provider_account: null });
    await fetchCurrentProviderAccount(client);
    expect(seen[0].url).toBe('http://127.0.0.1:8000/api/provider_account/current');
    expect(seen[0].headers.get('Authorization')).toBe('Bearer tok-1');
  });

  it('sends no Authorization header when logged out', async () => {
    const { client, seen } = clientAnswering(200, { token: 't', expires_at: 'x', user: {} }, null);
    await logIn(client, { email: 'a@b.c', password: 'p' });
    expect(seen[0].headers.has('Authorization')).toBe(false);
  });

  it('turns a 401 to an authenticated call into a logout', async () => {
    const { client, hooks } = clientAnswering(401, { message: 'Session expired.' });
    await expect(fetchCurrentProviderAccount(client)).rejects.toMatchObject({ status: 401, message: 'Session expired.' });
    expect(hooks.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(hooks.onUnauthorized).toHaveBeenCalledWith(undefined);
  });

  it('says why when the 401 is for a deactivated account', async () => {
    const deactivated = 'Your account has been deactivated. Ask your administrator to reactivate it.';
    const { client, hooks } = clientAnswering(401, { message: deactivated, code: '40000' });
    await expect(fetchCurrentProviderAccount(client)).rejects.toMatchObject({ status: 401 });
    expect(hooks.onUnauthorized).toHaveBeenCalledWith(deactivated);
  });

  it('reports a 403 to an authenticated call (the role may have changed), not to an anonymous one', async () => {
    const { client, hooks } = clientAnswering(403, { message: 'Your role does not allow this action.', code: 'FORBIDDEN' });
    await expect(fetchCurrentProviderAccount(client)).rejects.toMatchObject({ status: 403 });
    expect(hooks.onForbidden).toHaveBeenCalledTimes(1);
    const anonymous = clientAnswering(403, { message: 'No.' }, null);
    await expect(fetchCurrentProviderAccount(anonymous.client)).rejects.toMatchObject({ status: 403 });
    expect(anonymous.hooks.onForbidden).not.toHaveBeenCalled();
  });

  it('does not log out on a wrong password (401 without a token)', async () => {
    const { client, hooks } = clientAnswering(401, { message: 'Invalid email or password.' }, null);
    const failure = await logIn(client, { email: 'a@b.c', password: 'nope' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('Invalid email or password.');
    expect(hooks.onUnauthorized).not.toHaveBeenCalled();
  });

  it('reports the provider-account codes of any response', async () => {
    const { client, hooks } = clientAnswering(403, { message: 'Not set up', code: 'PROVIDER_ACCOUNT_NOT_SETUP' });
    await expect(fetchCurrentProviderAccount(client)).rejects.toMatchObject({ code: 'PROVIDER_ACCOUNT_NOT_SETUP' });
    expect(hooks.onAccountCode).toHaveBeenCalledWith('PROVIDER_ACCOUNT_NOT_SETUP');
  });

  it('falls back to the caller’s message when the error body has none', async () => {
    const { client } = clientAnswering(502, {});
    await expect(fetchCurrentProviderAccount(client)).rejects.toMatchObject({
      message: 'An error has occurred. Could not load the provider account.',
    });
  });
});
