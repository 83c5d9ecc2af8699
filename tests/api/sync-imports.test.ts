// Imports against the Cliniko-compatible sandbox over real HTTP: counts, idempotency, cancellations in the PMS,
// appointments that vanish, change log and import history, filters, roles and tenants.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/src/app';
import { appointments, resourceMaps, versions } from '../../server/src/db/schema';
import { importHistoryEntries } from '../../server/src/db/schema-sync';
import { jobs } from '../../server/src/db/schema-jobs';
import { enqueueJob } from '../../server/src/jobs/queue';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
let other: BusinessFixture;

const RANGE = { start_date: '2026-11-23', end_date: '2026-11-29' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 2_000 };

/** The sandbox's appointments that should exist locally as active copies: in range, not cancelled/archived/deleted. */
function activeSandboxIds(from: string, to: string, practitionerIds?: string[]) {
  return sandbox.dataset.appointments.filter((a) => a.starts_at >= from && a.starts_at < to && !a.cancelled_at && !a.archived_at && !a.deleted_at
    && (!practitionerIds || practitionerIds.includes(a.practitioner_id))).map((a) => a.id).sort();
}

async function activeLocalExternalIds(businessAccountId: number, from: string, to: string) {
  const rows = await t.ctx.db.select({ external_id: resourceMaps.external_id, starts_at: appointments.starts_at }).from(appointments)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id)))
    .where(and(eq(appointments.business_account_id, businessAccountId), isNull(appointments.cancelled_at)));
  return rows.filter((r) => r.starts_at.toISOString() >= from && r.starts_at.toISOString() < to).map((r) => r.external_id).sort();
}

async function runImport(token: string, body: Record<string, unknown> = RANGE) {
  const created = await t.request('POST', '/api/imports', { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/imports/${created.body.import.id}`, { token });
  return done.body.import;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, startDate: '2026-11-23', weeks: 2, patients: 80, practitioners: 5, inactivePractitioners: 1 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('provider account', () => {
  it('refuses a key the PMS rejects with 422 and stores nothing', async () => {
    const response = await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: 'not-a-real-key-au1' } });
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('The practice management system refused this API key.');
    const current = await t.request('GET', '/api/provider_account/current', { token: acme.tokens.admin });
    expect(current.body.provider_account).toBeNull();
  });

  it('answers 409 PROVIDER_ACCOUNT_NOT_SETUP for imports and exports before a connection', async () => {
    for (const path of ['/api/imports', '/api/exports']) {
      const response = await t.request('POST', path, { token: acme.tokens.admin, body: RANGE });
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'PROVIDER_ACCOUNT_NOT_SETUP', message: 'The account setup is not complete.' });
    }
  });

  it('only an admin connects; the key is checked, encrypted, never returned; INITIALIZING then ACTIVE', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('POST', '/api/provider_account', { token, body: { api_key: sandbox.apiKey } })).status).toBe(403);
    }
    const response = await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: `  ${sandbox.apiKey} ` } });
    expect(response.status).toBe(201);
    expect(response.body.provider_account).toMatchObject({ status: 'INITIALIZING', api_key_last4: sandbox.apiKey.slice(-4), last_error: null });
    expect(JSON.stringify(response.body)).not.toContain(sandbox.apiKey.slice(0, 20));
    const blocked = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE });
    expect(blocked.body).toMatchObject({ code: 'PROVIDER_ACCOUNT_NOT_ACTIVE', message: 'The account is not active.' });

    await drainJobs(t.ctx, { tuning: FAST });
    const current = await t.request('GET', '/api/provider_account/current', { token: acme.tokens.staff });
    expect(current.body.provider_account.status).toBe('ACTIVE');
    const stored = await t.ctx.db.query.providerAccounts.findFirst({ where: (p, { eq: is }) => is(p.business_account_id, acme.businessAccountId) });
    expect(stored!.api_key_encrypted).not.toContain(sandbox.apiKey.slice(0, 10));
    expect(t.ctx.secrets.open(stored!.api_key_encrypted!)).toBe(sandbox.apiKey);
    // Reference data arrived: the sandbox's practitioners (active and inactive) and appointment types.
    const practitioners = await t.request('GET', '/api/practitioners/all', { token: acme.tokens.admin });
    for (const p of sandbox.dataset.practitioners) {
      expect(practitioners.body.practitioners.some((local: { last_name: string; active: boolean }) => local.last_name === p.last_name && local.active === p.active)).toBe(true);
    }
  });
});

describe('imports', () => {
  const from = '2026-11-22T14:00:00.000Z'; // 2026-11-23 00:00 in Brisbane
  const to = '2026-11-29T14:00:00.000Z';

  it('validates the range and filters with 422 messages', async () => {
    const reversed = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: { start_date: '2026-11-29', end_date: '2026-11-23' } });
    expect(reversed.status).toBe(422);
    expect(reversed.body.message).toBe('end_date must be on or after start_date');
    const long = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: { start_date: '2026-01-01', end_date: '2026-12-31' } });
    expect(long.status).toBe(422);
    expect(long.body.message).toMatch(/at most 62 days/);
    const missing = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: { start_date: '2026-11-23' } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContain('end_date is required');
    const foreign = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: { ...RANGE, practitioner_ids: [other.practitionerIds[0]] } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.message).toMatch(/^practitioner_ids: /);
  });

  it('creates the sandbox appointments of the range, with change log, import history and resource maps', async () => {
    const result = await runImport(acme.tokens.staff);
    expect(result.status).toBe('COMPLETE');
    const expected = activeSandboxIds(from, to);
    expect(expected.length).toBeGreaterThan(50);
    expect(result.result).toMatchObject({ appointments_created: expected.length, appointments_updated: 0, appointments_cancelled: 0 });
    expect(result.created_by_name).toBe('Sid');
    expect(await activeLocalExternalIds(acme.businessAccountId, from, to)).toEqual(expected);

    const [map] = await t.ctx.db.select().from(resourceMaps).where(and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.external_id, expected[0])));
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Appointment'), eq(versions.item_id, map.resource_id)));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ event: 'create', whodunnit: `Import #${result.id} by Sid` });
    const history = await t.ctx.db.select().from(importHistoryEntries).where(eq(importHistoryEntries.appointment_id, map.resource_id));
    expect(history).toMatchObject([{ import_id: result.id, author_full_name: `Import #${result.id} by Sid` }]);
    // Clients come from the sandbox's patients, with the sandbox's coordinates.
    const [appointment] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, map.resource_id));
    const source = sandbox.dataset.appointments.find((a) => a.id === expected[0])!;
    const patient = sandbox.dataset.patients.find((p) => p.id === source.patient_id)!;
    expect(appointment.lat).toBeCloseTo(patient.latitude!, 5);
    expect(appointment.starts_at.toISOString()).toBe(new Date(source.starts_at).toISOString());
  });

  it('is idempotent: importing again creates, updates and cancels nothing', async () => {
    const before = await t.ctx.db.select({ id: versions.id }).from(versions);
    const result = await runImport(acme.tokens.admin);
    expect(result.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 });
    expect(result.result.appointments_unchanged).toBe(activeSandboxIds(from, to).length);
    expect(await t.ctx.db.select({ id: versions.id }).from(versions)).toHaveLength(before.length);
  });

  it('a one-day import that changed nothing says how many appointments were unchanged, always (the contract requires it)', async () => {
    const result = await runImport(acme.tokens.admin, { start_date: '2026-11-24', end_date: '2026-11-24' });
    const day = activeSandboxIds('2026-11-23T14:00:00.000Z', '2026-11-24T14:00:00.000Z');
    expect(day.length).toBeGreaterThan(0);
    expect(result.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0, appointments_unchanged: day.length });
    const schemas = (loadContract() as unknown as { components: { schemas: Record<string, { required: string[] }> } }).components.schemas;
    expect(schemas.ImportResult.required).toContain('appointments_unchanged');
    expect(schemas.ExportResult.required).toContain('skipped_unchanged');
  });

  it('keeps a local arrival time not exported yet, cancels what was cancelled, archived or deleted in the PMS, and what vanished from it', async () => {
    const ids = activeSandboxIds(from, to);
    const byId = (id: string) => sandbox.dataset.appointments.find((a) => a.id === id)!;
    const stamp = '2026-11-20T00:00:00Z';
    Object.assign(byId(ids[0]), { cancelled_at: stamp, updated_at: stamp, cancellation_reason: 50 });
    Object.assign(byId(ids[1]), { archived_at: stamp, updated_at: stamp });
    Object.assign(byId(ids[2]), { deleted_at: stamp, updated_at: stamp });
    const vanishedIndex = sandbox.dataset.appointments.indexOf(byId(ids[3]));
    sandbox.dataset.appointments.splice(vanishedIndex, 1);
    // A local arrival time not exported yet survives the next import (the PMS did not move that appointment).
    const [map] = await t.ctx.db.select().from(resourceMaps).where(and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.external_id, ids[4])));
    await t.ctx.db.update(appointments).set({ arrive_at: new Date(Date.parse(byId(ids[4]).starts_at) + 15 * 60_000) }).where(eq(appointments.id, map.resource_id));

    const result = await runImport(acme.tokens.admin);
    expect(result.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 4 });
    expect(await activeLocalExternalIds(acme.businessAccountId, from, to)).toEqual(activeSandboxIds(from, to));
    const [edited] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, map.resource_id));
    expect(edited.arrive_at!.toISOString()).toBe(new Date(Date.parse(byId(ids[4]).starts_at) + 15 * 60_000).toISOString());
  });

  it('applies filters: only the chosen practitioner is imported, and a practitioner may import only their own', async () => {
    const [practitioner] = await t.ctx.db.select().from(resourceMaps)
      .where(and(eq(resourceMaps.business_account_id, other.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')));
    expect(practitioner).toBeUndefined(); // the other business is not connected
    const connect = await t.request('POST', '/api/provider_account', { token: other.tokens.admin, body: { api_key: sandbox.apiKey } });
    expect(connect.status).toBe(201);
    await drainJobs(t.ctx, { tuning: FAST });
    const maps = await t.ctx.db.select().from(resourceMaps)
      .where(and(eq(resourceMaps.business_account_id, other.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner')));
    const chosen = maps[0];
    const result = await runImport(other.tokens.admin, { ...RANGE, practitioner_ids: [chosen.resource_id] });
    expect(result.status).toBe('COMPLETE');
    expect(await activeLocalExternalIds(other.businessAccountId, from, to)).toEqual(activeSandboxIds(from, to, [chosen.external_id]));
    // Acme's copies are untouched by the other business's import (tenant isolation of resource maps).
    expect(await activeLocalExternalIds(acme.businessAccountId, from, to)).toEqual(activeSandboxIds(from, to));

    // Imports are the office's: a practitioner is refused, even for their own practitioner, and nothing is queued.
    const imports = async () => (await t.ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.business_account_id, acme.businessAccountId))).length;
    const before = await imports();
    for (const body of [RANGE, { ...RANGE, practitioner_ids: [acme.ownPractitionerId] }]) {
      const refused = await t.request('POST', '/api/imports', { token: acme.tokens.practitioner, body });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Your role does not allow this action.');
    }
    expect(await imports()).toBe(before);
  });
});

describe('history, reading and cancelling', () => {
  it('lists imports newest first for admins only, with who, when, range and counts', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('GET', '/api/imports', { token })).status).toBe(403);
    }
    const page = await t.request('GET', '/api/imports?per_page=2', { token: acme.tokens.admin });
    expect(page.status).toBe(200);
    expect(page.body.meta).toMatchObject({ page: 1, per_page: 2 });
    expect(page.body.meta.total).toBeGreaterThanOrEqual(4);
    expect(page.body.imports).toHaveLength(2);
    expect(page.body.imports[0].id).toBeGreaterThan(page.body.imports[1].id);
    const otherPage = await t.request('GET', '/api/imports', { token: other.tokens.admin });
    expect(otherPage.body.imports.every((job: { id: number }) => !page.body.imports.some((mine: { id: number }) => mine.id === job.id))).toBe(true);
  });

  it('hides another business\'s jobs (404), another user\'s from a regular user (404), and every import from a practitioner (403)', async () => {
    const [latest] = (await t.request('GET', '/api/imports', { token: acme.tokens.admin })).body.imports;
    expect((await t.request('GET', `/api/imports/${latest.id}`, { token: other.tokens.admin })).status).toBe(404);
    expect((await t.request('POST', `/api/imports/${latest.id}/cancel`, { token: other.tokens.admin })).status).toBe(404);
    expect((await t.request('GET', `/api/exports/${latest.id}`, { token: acme.tokens.admin })).status).toBe(404);
    const adminJob = (await t.request('GET', '/api/imports', { token: acme.tokens.admin })).body.imports.find((job: { created_by_name: string }) => job.created_by_name === 'Ada acme');
    expect((await t.request('GET', `/api/imports/${adminJob.id}`, { token: acme.tokens.staff })).status).toBe(404);
    expect((await t.request('GET', `/api/imports/${latest.id}`, { token: acme.tokens.practitioner })).status).toBe(403);
  });

  it('a regular user reads and cancels only the imports they started; an admin any; an automatic one only an admin', async () => {
    const byAdmin = (await t.request('POST', '/api/imports', { token: acme.tokens.admin, body: RANGE })).body.import;
    const byStaff = (await t.request('POST', '/api/imports', { token: acme.tokens.staff, body: RANGE })).body.import;
    // Another user's import: neither readable nor cancellable, with the same 404, so its existence is not told.
    for (const token of [acme.tokens.staff]) {
      const unread = await t.request('GET', `/api/imports/${byAdmin.id}`, { token });
      expect(unread.status).toBe(404);
      const refused = await t.request('POST', `/api/imports/${byAdmin.id}/cancel`, { token });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual(unread.body);
    }
    expect((await t.request('GET', `/api/imports/${byAdmin.id}`, { token: acme.tokens.admin })).body.import.status).toBe('PENDING');
    // The author reads their own; an admin cancels anyone's.
    expect((await t.request('GET', `/api/imports/${byStaff.id}`, { token: acme.tokens.staff })).status).toBe(200);
    expect((await t.request('POST', `/api/imports/${byStaff.id}/cancel`, { token: acme.tokens.admin })).body.import.status).toBe('CANCELLED');
    expect((await t.request('POST', `/api/imports/${byAdmin.id}/cancel`, { token: acme.tokens.admin })).body.import.status).toBe('CANCELLED');
    // Automatic sync has no author: only an admin cancels it, for imports and exports alike.
    for (const kind of ['IMPORT', 'EXPORT'] as const) {
      const path = kind === 'IMPORT' ? 'imports' : 'exports';
      const automatic = await enqueueJob(t.ctx.db, { businessAccountId: acme.businessAccountId, kind, startDate: RANGE.start_date, endDate: RANGE.end_date, automatic: true });
      expect((await t.request('GET', `/api/${path}/${automatic.id}`, { token: acme.tokens.staff })).status).toBe(404);
      expect((await t.request('POST', `/api/${path}/${automatic.id}/cancel`, { token: acme.tokens.staff })).status).toBe(404);
      expect((await t.request('POST', `/api/${path}/${automatic.id}/cancel`, { token: acme.tokens.admin })).status).toBe(200);
    }
  });

  it('cancels a pending import, and refuses to cancel a finished one with 409', async () => {
    const created = await t.request('POST', '/api/imports', { token: acme.tokens.staff, body: RANGE });
    const cancelled = await t.request('POST', `/api/imports/${created.body.import.id}/cancel`, { token: acme.tokens.staff });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.import.status).toBe('CANCELLED');
    await drainJobs(t.ctx, { tuning: FAST });
    expect((await t.request('GET', `/api/imports/${created.body.import.id}`, { token: acme.tokens.staff })).body.import.status).toBe('CANCELLED');
    const again = await t.request('POST', `/api/imports/${created.body.import.id}/cancel`, { token: acme.tokens.staff });
    expect(again.status).toBe(409);
  });
});

describe('disconnecting', () => {
  it('only an admin disconnects; the key is deleted and jobs are refused with PROVIDER_ACCOUNT_NOT_ACTIVE', async () => {
    expect((await t.request('DELETE', '/api/provider_account', { token: other.tokens.staff })).status).toBe(403);
    const response = await t.request('DELETE', '/api/provider_account', { token: other.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.body.provider_account).toMatchObject({ status: 'DISCONNECTED', api_key_last4: null });
    const stored = await t.ctx.db.query.providerAccounts.findFirst({ where: (p, { eq: is }) => is(p.business_account_id, other.businessAccountId) });
    expect(stored!.api_key_encrypted).toBeNull();
    const refused = await t.request('POST', '/api/imports', { token: other.tokens.admin, body: RANGE });
    expect(refused.body.code).toBe('PROVIDER_ACCOUNT_NOT_ACTIVE');
    // Acme is unaffected.
    const acmeAccount = await t.request('GET', '/api/provider_account/current', { token: acme.tokens.admin });
    expect(acmeAccount.body.provider_account.status).toBe('ACTIVE');
  });
});
