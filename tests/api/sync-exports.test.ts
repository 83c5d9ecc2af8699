// Exports against the sandbox over real HTTP: changed times are written back, unchanged ones skipped, an appointment
// changed in the PMS since import is reported as a conflict and not overwritten; roles and tenants.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, resourceMaps, routes, versions } from '../../server/src/db/schema';
import { exportHistoryEntries } from '../../server/src/db/schema-sync';
import { jobs } from '../../server/src/db/schema-jobs';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;
let other: BusinessFixture;

const RANGE = { start_date: '2026-11-23', end_date: '2026-11-25' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 2_000 };
const MINUTE = 60_000;

async function run(kind: 'imports' | 'exports', token: string, body: Record<string, unknown> = RANGE) {
  const created = await t.request('POST', `/api/${kind}`, { token, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/${kind}/${created.body[kind.slice(0, -1)].id}`, { token });
  return done.body[kind.slice(0, -1)];
}

/** Local appointments imported from the sandbox, with their external ids, earliest first. */
async function imported(businessAccountId: number) {
  return t.ctx.db.select({ id: appointments.id, starts_at: appointments.starts_at, ends_at: appointments.ends_at, external_id: resourceMaps.external_id })
    .from(appointments)
    .innerJoin(resourceMaps, and(eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.resource_id, appointments.id)))
    .where(eq(appointments.business_account_id, businessAccountId)).orderBy(appointments.starts_at, appointments.id);
}

const sandboxAppointment = (id: string) => sandbox.dataset.appointments.find((a) => a.id === id)!;

/** What the arrival-time editor does: moves arrive_at only. */
async function moveArrival(appointmentId: number, minutes: number) {
  const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, appointmentId));
  await t.ctx.db.update(appointments).set({ arrive_at: new Date(row.starts_at.getTime() + minutes * MINUTE) }).where(eq(appointments.id, appointmentId));
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, startDate: '2026-11-23', weeks: 1, patients: 40, practitioners: 3, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
  expect((await run('imports', acme.tokens.admin)).status).toBe('COMPLETE');
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('exports', () => {
  it('writes a moved arrival time to the PMS (start and end), records history and the change, and skips the rest', async () => {
    const rows = await imported(acme.businessAccountId);
    const target = rows[0];
    const before = { ...sandboxAppointment(target.external_id) };
    await moveArrival(target.id, 30);

    const result = await run('exports', acme.tokens.staff);
    expect(result.status).toBe('COMPLETE');
    expect(result.result).toMatchObject({ exported: 1, skipped_unchanged: rows.length - 1, conflicts: [] });
    // The fixture's own appointments were created in Rounds and have no PMS record.
    expect(result.result.skipped_not_in_pms).toBe(4);

    const after = sandboxAppointment(target.external_id);
    expect(Date.parse(after.starts_at)).toBe(Date.parse(before.starts_at) + 30 * MINUTE);
    expect(Date.parse(after.ends_at)).toBe(Date.parse(before.ends_at) + 30 * MINUTE);
    const [local] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, target.id));
    expect(local.starts_at.getTime()).toBe(Date.parse(after.starts_at));
    const history = await t.ctx.db.select().from(exportHistoryEntries).where(eq(exportHistoryEntries.appointment_id, target.id));
    expect(history).toMatchObject([{ export_id: result.id, author_full_name: `Export #${result.id} by Sid` }]);
    const log = await t.ctx.db.select().from(versions).where(and(eq(versions.item_type, 'Appointment'), eq(versions.item_id, target.id)));
    expect(log.map((v) => v.whodunnit)).toContain(`Export #${result.id} by Sid`);
  });

  it('exporting again writes nothing, and a later import finds nothing to change', async () => {
    const requests = sandbox.requestLog.length;
    const again = await run('exports', acme.tokens.admin);
    expect(again.result).toMatchObject({ exported: 0, conflicts: [] });
    expect(sandbox.requestLog.slice(requests).filter((r) => r.method === 'PATCH')).toHaveLength(0);
    const reimport = await run('imports', acme.tokens.admin);
    expect(reimport.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 });
  });

  it('reports an appointment changed in the PMS since import as a conflict and does not overwrite it', async () => {
    const rows = await imported(acme.businessAccountId);
    const target = rows[1];
    const pms = sandboxAppointment(target.external_id);
    // Someone moves it in the PMS after the import…
    const movedThere = new Date(Date.parse(pms.starts_at) + 60 * MINUTE).toISOString().replace('.000', '');
    const duration = Date.parse(pms.ends_at) - Date.parse(pms.starts_at);
    Object.assign(pms, { starts_at: movedThere, ends_at: new Date(Date.parse(movedThere) + duration).toISOString().replace('.000', ''), updated_at: '2026-11-21T09:00:00Z' });
    // …while it is moved in Rounds too.
    await moveArrival(target.id, 15);

    const result = await run('exports', acme.tokens.admin);
    expect(result.status).toBe('COMPLETE');
    expect(result.result.exported).toBe(0);
    expect(result.result.conflicts).toEqual([{
      appointment_id: target.id, external_id: target.external_id, reason: expect.stringMatching(/changed in the practice management system after it was imported/),
    }]);
    expect(sandboxAppointment(target.external_id).starts_at).toBe(movedThere);
    // An import brings the PMS's version back and the conflict is gone.
    await run('imports', acme.tokens.admin);
    const clean = await run('exports', acme.tokens.admin);
    expect(clean.result).toMatchObject({ exported: 0, conflicts: [] });
  });

  it('refuses a practitioner\'s export, even of their own practitioner (403), queueing nothing', async () => {
    const exports = async () => (await t.ctx.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.business_account_id, acme.businessAccountId))).length;
    const before = await exports();
    for (const body of [RANGE, { ...RANGE, practitioner_ids: [acme.ownPractitionerId] }]) {
      const refused = await t.request('POST', '/api/exports', { token: acme.tokens.practitioner, body });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Your role does not allow this action.');
    }
    expect(await exports()).toBe(before);
  });
});

describe('export history and access', () => {
  it('lists exports for admins only, newest first, per business', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) expect((await t.request('GET', '/api/exports', { token })).status).toBe(403);
    const page = await t.request('GET', '/api/exports', { token: acme.tokens.admin });
    expect(page.body.meta.total).toBeGreaterThanOrEqual(4);
    expect(page.body.exports[0]).toMatchObject({ status: 'COMPLETE', start_date: RANGE.start_date, end_date: RANGE.end_date, automatic: false });
    const theirs = await t.request('GET', '/api/exports', { token: other.tokens.admin });
    const mine = new Set(page.body.exports.map((job: { id: number }) => job.id));
    expect(theirs.body.exports.filter((job: { id: number }) => mine.has(job.id))).toEqual([]);
    expect((await t.request('GET', `/api/exports/${page.body.exports[0].id}`, { token: other.tokens.admin })).status).toBe(404);
    expect((await t.request('POST', `/api/exports/${page.body.exports[0].id}/cancel`, { token: other.tokens.staff })).status).toBe(404);
    expect((await t.request('POST', `/api/exports/${page.body.exports[0].id}/cancel`, { token: acme.tokens.admin })).status).toBe(409);
  });

  it('needs a connected account and valid input', async () => {
    expect((await t.request('POST', '/api/exports', { token: other.tokens.admin, body: RANGE })).body.code).toBe('PROVIDER_ACCOUNT_NOT_SETUP');
    const missing = await t.request('POST', '/api/exports', { token: acme.tokens.admin, body: { end_date: '2026-11-25' } });
    expect(missing.status).toBe(422);
    const unknown = await t.request('POST', '/api/exports', { token: acme.tokens.admin, body: { ...RANGE, appointment_type_ids: [other.appointmentTypeIds[0]] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toMatch(/^appointment_type_ids: /);
  });
});

describe('the export preview (for its confirmation)', () => {
  const preview = (token: string, body: Record<string, unknown> = RANGE) => t.request('POST', '/api/exports/preview', { token, body });

  it('counts the visits an export would write and names the routes changed since they were optimised, writing nothing', async () => {
    await run('exports', acme.tokens.admin);
    expect((await preview(acme.tokens.staff)).body.preview).toEqual({ visits_to_change: 0, changed_routes: [] });
    const rows = await imported(acme.businessAccountId);
    await moveArrival(rows[2].id, 20);
    await moveArrival(rows[3].id, -10);
    await t.ctx.db.update(routes).set({ stale_at: new Date() }).where(eq(routes.id, acme.routeIds[0]));
    const requests = sandbox.requestLog.length;

    const answer = await preview(acme.tokens.staff);
    expect(answer.status).toBe(200);
    expect(answer.body.preview).toEqual({
      visits_to_change: 2,
      changed_routes: [{ date: '2026-11-25', practitioner_id: acme.practitionerIds[0], practitioner_name: 'Pat acme-One' }],
    });
    expect(sandbox.requestLog.length).toBe(requests);
    // Days and practitioners outside the filters are not counted.
    expect((await preview(acme.tokens.admin, { start_date: '2026-11-26', end_date: '2026-11-27' })).body.preview).toEqual({ visits_to_change: 0, changed_routes: [] });
    expect((await preview(acme.tokens.admin, { ...RANGE, practitioner_ids: [acme.practitionerIds[1]] })).body.preview.changed_routes).toEqual([]);
    // Another business sees only its own.
    expect((await preview(other.tokens.admin)).body.preview).toEqual({ visits_to_change: 0, changed_routes: [] });
    await run('exports', acme.tokens.admin);
  });

  it('is refused like the export itself: a practitioner (403), bad input (422), no login (401)', async () => {
    expect((await preview(acme.tokens.practitioner)).status).toBe(403);
    const missing = await preview(acme.tokens.admin, { end_date: '2026-11-25' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBeTruthy();
    const reversed = await preview(acme.tokens.admin, { start_date: '2026-11-25', end_date: '2026-11-23' });
    expect(reversed.status).toBe(422);
    expect((await preview(acme.tokens.admin, { ...RANGE, practitioner_ids: [other.practitionerIds[0]] })).status).toBe(422);
    expect((await t.request('POST', '/api/exports/preview', { body: RANGE })).status).toBe(401);
  });
});
