// Bad input never breaks it: a bounded contract-fuzzing run over real HTTP (tests/fuzz/fuzzer.ts), and the requests
// the fuzzer once found wrong, kept so they stay right. The long run is `npm run fuzz -- --seed N --count M`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure, loadOperations, runFuzz, sendAndCheck, startFuzzWorld, type FuzzRequest, type FuzzWorld } from '../fuzz/fuzzer';

/** Fixed, so that a failure here is the same failure on every machine; FUZZ_SEED tries another. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const COUNT = Number(process.env.FUZZ_COUNT ?? 3000);

let world: FuzzWorld;
beforeAll(async () => { world = await startFuzzWorld(); });
afterAll(() => world.close());

function request(method: string, url: string, role: 'ADMIN' | 'NONE' = 'ADMIN', body?: unknown): FuzzRequest {
  const headers: Record<string, string> = {};
  const token = role === 'ADMIN' ? world.tokens.ADMIN : undefined;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return { seed: 0, index: 0, operationId: url, role, mutation: 'regression', method, url, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}

describe('requests the fuzzer found answered outside the contract', () => {
  it.each([
    // A malformed path id or paging parameter answers 422, which these operations' contracts did not list.
    ['GET', '/api/clients/-1'], ['GET', '/api/appointments/99999999999999999999'], ['GET', '/api/appointments/%F0%9F%92%A5/extra_details'],
    ['GET', '/api/imports/%20'], ['GET', '/api/exports/2147483648'], ['GET', '/api/imports?page=9%3A5'], ['GET', '/api/exports?per_page=1e-300'],
    ['POST', '/api/imports/1.5/cancel'], ['POST', '/api/exports/abc/cancel'], ['GET', '/api/optimizations/0'],
    ['POST', '/api/optimizations/abc/apply'], ['POST', '/api/optimizations/null/discard'], ['POST', '/api/optimizations/-1/cancel'],
    ['POST', '/api/appointments/-1/remove_from_route'], ['DELETE', '/api/tags/abc'], ['DELETE', '/api/routes/-1'],
    ['DELETE', '/api/custom_locations/1.5'], ['POST', '/api/users/abc/resend_invitation'], ['POST', '/api/users/0/deactivate'],
    ['POST', '/api/users/x/reactivate'],
  ])('%s %s answers a 422 the contract lists', async (method, url) => {
    const result = await sendAndCheck(world.baseUrl, request(method, url));
    expect(result.status).toBe(422);
    expect(result.problem).toBeNull();
  });
});

describe("the fuzzer's checks", () => {
  it('flag a 5xx, an answer outside the contract, a 4xx without a message and another business in an answer', async () => {
    const answers: Record<string, [number, string]> = {
      '/api/clients/1': [500, '{"message":"boom"}'],
      '/api/clients/2': [418, '{"message":"I am a teapot"}'],
      '/api/clients/3': [404, '{"code":"NOT_FOUND"}'],
      '/api/clients/4': [200, '{"client":{"first_name":"Cora","last_name":"othercorp-Client"}}'],
    };
    const fake = createServer((incoming, outgoing) => {
      const [status, body] = answers[incoming.url ?? ''] ?? [404, '{}'];
      outgoing.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    try {
      const problems = await Promise.all(Object.keys(answers).map(async (url) => (await sendAndCheck(base, request('GET', url))).problem));
      expect(problems[0]).toMatch(/500/);
      expect(problems[1]).toMatch(/contract/);
      expect(problems[2]).toMatch(/message/);
      expect(problems[3]).toMatch(/other business/);
    } finally {
      fake.close();
    }
  });
});

describe('contract fuzzing (bounded run)', () => {
  it(`${COUNT} generated and mutated requests, as each role and none: no 5xx, all within the contract, no other business's data`, async () => {
    const result = await runFuzz(world, { seed: SEED, count: COUNT });
    console.log(`fuzz seed ${SEED}: ${result.sent} requests in ${result.seconds.toFixed(1)} s, statuses ${JSON.stringify(result.statuses)}, sessions restored ${result.sessionRestores} times; never 2xx: ${result.neverSucceeded.join(', ')}`);
    expect(result.failures.map(describeFailure).slice(0, 20).join('\n\n')).toBe('');
    expect(result.sent).toBe(COUNT);
    // The run reached the handlers: most operations answered 2xx at least once (about 2 in 3: those needing a
    // consistent body, e.g. booking a visit a practitioner delivers inside a client's window, rarely come out of random
    // values; their rules are their own tests').
    expect(result.neverSucceeded.length).toBeLessThan(loadOperations().operations.length / 3);
  }, 240_000);

  it('the server still answers /healthz afterwards', async () => {
    const health = await fetch(`${world.baseUrl}/healthz`);
    expect(health.status).toBe(200);
  });
});
