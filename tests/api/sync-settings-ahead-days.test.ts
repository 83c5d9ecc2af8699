// Days ahead stop where today..today+ahead_days would be longer than the 62 days an import or export may cover.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
});
afterAll(() => t.close());

const settings = (aheadDays: number) => ({
  enable_auto_import: true, enable_auto_export: false, ahead_days: aheadDays,
  filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] },
});

describe('sync settings days ahead', () => {
  it('accepts 61 (today..today+61 is 62 days) and refuses 62', async () => {
    const longest = await t.request('PUT', '/api/sync_settings', { token: acme.tokens.admin, body: settings(61) });
    expect(longest.status).toBe(200);
    expect(longest.body.sync_settings.ahead_days).toBe(61);
    const tooMany = await t.request('PUT', '/api/sync_settings', { token: acme.tokens.admin, body: settings(62) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors[0]).toMatch(/^ahead_days /);
    expect((await t.request('GET', '/api/sync_settings', { token: acme.tokens.admin })).body.sync_settings.ahead_days).toBe(61);
  });

  it('is kept by the database too, so no stored setting can make the modals prefill a range the server refuses', async () => {
    await expect(t.ctx.db.execute(sql`UPDATE sync_settings SET ahead_days = 90 WHERE business_account_id = ${acme.businessAccountId}`)).rejects.toThrow();
    expect((await t.request('GET', '/api/sync_settings', { token: acme.tokens.admin })).body.sync_settings.ahead_days).toBe(61);
  });
});
