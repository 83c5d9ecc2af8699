// The clients' type-ahead (Nearby search's origin field): sort=match puts the clients whose whole name starts with
// what was typed first, then the other matches by name; without q it is the name order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  const base = { business_account_id: acme.businessAccountId, first_name: 'Mei' };
  // Mei Brown matches "Mei Le" through her suburb (WelLErs Hill).
  await t.ctx.db.insert(clients).values([{ ...base, last_name: 'Brown', city: 'Wellers Hill' }, { ...base, last_name: 'Lee', city: 'Ashgrove' }]);
}, 120_000);
afterAll(() => t?.close());

const names = async (query: string) => {
  const response = await t.request('GET', `/api/clients?${query}`, { token: acme.tokens.staff });
  expect(response.status).toBe(200);
  return response.body.clients.map((client: { full_name: string }) => client.full_name);
};

describe('clients type-ahead', () => {
  it('lists the clients whose whole name starts with the text first', async () => {
    expect(await names('q=Mei%20Le&per_page=5')).toEqual(['Mei Brown', 'Mei Lee']);
    expect(await names('q=Mei%20Le&per_page=5&sort=match')).toEqual(['Mei Lee', 'Mei Brown']);
    expect(await names('q=%20mei%20%20LE%20&per_page=5&sort=match')).toEqual(['Mei Lee', 'Mei Brown']);
    expect(await names('q=Mei&per_page=5&sort=match')).toEqual(['Mei Brown', 'Mei Lee']);
  });
});
