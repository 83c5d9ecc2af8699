// Sync settings (read by everyone, changed by admins, filters limited to the business's own records) and the
// automatic-sync scheduler that turns them into jobs.
import { and, eq } from 'drizzle-orm';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerAccounts } from '../../server/src/db/schema';
import { jobs } from '../../server/src/db/schema-jobs';
import { setSubscription } from '../../server/src/modules/subscriptions';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { latestSlot, scheduleAutomaticSync } from './support/jobs';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t.close());

describe('sync settings', () => {
  it('every role reads them; defaults until changed', async () => {
    for (const token of Object.values(acme.tokens)) {
      const response = await t.request('GET', '/api/sync_settings', { token });
      expect(response.status).toBe(200);
      expect(response.body.sync_settings).toMatchObject({ enable_auto_import: false, enable_auto_export: false, ahead_days: 7 });
    }
  });

  it('only an admin changes them; the filters must name the business\'s own records', async () => {
    const body = {
      enable_auto_import: true, enable_auto_export: true, ahead_days: 3,
      filters: { practitioner_ids: [acme.practitionerIds[0]], appointment_type_ids: [], business_location_ids: [acme.businessLocationIds[0]] },
    };
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) expect((await t.request('PUT', '/api/sync_settings', { token, body })).status).toBe(403);
    const foreign = await t.request('PUT', '/api/sync_settings', {
      token: acme.tokens.admin, body: { ...body, filters: { ...body.filters, appointment_type_ids: [other.appointmentTypeIds[0]] } },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toBe(`appointment_type_ids: ${other.appointmentTypeIds[0]} is not in this business`);
    const tooFar = await t.request('PUT', '/api/sync_settings', { token: acme.tokens.admin, body: { ...body, ahead_days: 91 } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.errors[0]).toMatch(/^ahead_days /);

    const saved = await t.request('PUT', '/api/sync_settings', { token: acme.tokens.admin, body });
    expect(saved.status).toBe(200);
    expect(saved.body.sync_settings).toEqual(body);
    expect((await t.request('GET', '/api/sync_settings', { token: acme.tokens.practitioner })).body.sync_settings).toEqual(body);
    expect((await t.request('GET', '/api/sync_settings', { token: other.tokens.admin })).body.sync_settings.enable_auto_import).toBe(false);
  });
});

describe('automatic sync scheduler', () => {
  const automaticJobs = () => t.ctx.db.select().from(jobs)
    .where(and(eq(jobs.business_account_id, acme.businessAccountId), eq(jobs.automatic, true)));

  it('computes the hourly slots (:05 imports, :35 exports)', () => {
    expect(latestSlot(new Date('2026-11-23T10:04:59Z'), 5).toISOString()).toBe('2026-11-23T09:05:00.000Z');
    expect(latestSlot(new Date('2026-11-23T10:05:00Z'), 5).toISOString()).toBe('2026-11-23T10:05:00.000Z');
    expect(latestSlot(new Date('2026-11-23T10:20:00Z'), 35).toISOString()).toBe('2026-11-23T09:35:00.000Z');
  });

  it('enqueues nothing for a business without an ACTIVE provider account', async () => {
    expect(await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T10:06:00Z'))).toEqual([]);
  });

  it('enqueues one import and one export per slot with the settings\' range and filters, at most one pending each', async () => {
    await t.ctx.db.insert(providerAccounts).values({ business_account_id: acme.businessAccountId, status: 'ACTIVE', connected_at: new Date() });
    const first = await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T10:40:00Z'));
    expect(first).toHaveLength(2);
    const enqueued = await automaticJobs();
    const today = Temporal.PlainDate.from('2026-11-23'); // the scheduler's clock: 10:40Z is 20:40 in Brisbane
    expect(enqueued.map((job) => job.kind).sort()).toEqual(['EXPORT', 'IMPORT']);
    for (const job of enqueued) {
      expect(job).toMatchObject({
        status: 'PENDING', created_by_name: null, start_date: today.toString(), end_date: today.add({ days: 3 }).toString(),
        filters: { practitioner_ids: [acme.practitionerIds[0]], appointment_type_ids: [], business_location_ids: [acme.businessLocationIds[0]] },
      });
    }
    // Same slot again: nothing. Next slot while the previous jobs are still pending: nothing either.
    expect(await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T10:50:00Z'))).toEqual([]);
    expect(await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T11:40:00Z'))).toEqual([]);
    // Once they finished, the next slot enqueues again; turning export off stops exports.
    await t.ctx.db.update(jobs).set({ status: 'COMPLETE' }).where(eq(jobs.automatic, true));
    await t.request('PUT', '/api/sync_settings', {
      token: acme.tokens.admin,
      body: { enable_auto_import: true, enable_auto_export: false, ahead_days: 3, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } },
    });
    const next = await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T12:06:00Z'));
    expect(next).toHaveLength(1);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, next[0]));
    expect(job).toMatchObject({ kind: 'IMPORT', automatic: true });
    // The history shows automatic jobs without an author.
    const history = await t.request('GET', '/api/imports', { token: acme.tokens.admin });
    expect(history.body.imports[0]).toMatchObject({ id: next[0], automatic: true, created_by_name: null });
  });

  it('enqueues nothing for a business that must add a payment method, and resumes at the first slot after it paid', async () => {
    const unpaid = await createBusinessFixture(t, 'unpaid');
    await t.ctx.db.insert(providerAccounts).values({ business_account_id: unpaid.businessAccountId, status: 'ACTIVE', connected_at: new Date() });
    const settings = await t.request('PUT', '/api/sync_settings', {
      token: unpaid.tokens.admin,
      body: { enable_auto_import: true, enable_auto_export: true, ahead_days: 2, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } },
    });
    expect(settings.status).toBe(200);
    const jobsOfUnpaid = () => t.ctx.db.select().from(jobs)
      .where(and(eq(jobs.business_account_id, unpaid.businessAccountId), eq(jobs.automatic, true)));
    // Its trial ended before the scheduler's clock without a payment method: the API answers its users 40003.
    await setSubscription(t.ctx.db, unpaid.businessAccountId, { status: 'trialing', trialEndsAt: new Date('2026-11-01T00:00:00Z'), paymentMethodOnFile: false });
    expect((await t.request('GET', '/api/sync_settings', { token: unpaid.tokens.admin })).body.code).toBe('40003');
    await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T14:40:00Z'));
    await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T15:40:00Z'));
    expect(await jobsOfUnpaid()).toEqual([]);
    // Paid: the next tick (same hour) enqueues its import and its export.
    await setSubscription(t.ctx.db, unpaid.businessAccountId, { paymentMethodOnFile: true });
    await scheduleAutomaticSync(t.ctx.db, new Date('2026-11-23T15:45:00Z'));
    expect((await jobsOfUnpaid()).map((job) => job.kind).sort()).toEqual(['EXPORT', 'IMPORT']);
  });
});
