// Leave imported from the Cliniko-compatible sandbox's unavailable blocks over real HTTP: each block becomes the
// practitioner's leave (upserted by its block id), a block gone from Cliniko removes its leave within the imported
// range, leave entered in Rounds stays, and imported leave is changed in Cliniko only.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceMaps } from '../../server/src/db/schema';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;

// The dataset's last week, where its blocks are.
const WEEK = { start_date: '2026-11-30', end_date: '2026-12-06' };
const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 2_000 };

async function runImport(body: Record<string, unknown> = WEEK) {
  const created = await t.request('POST', '/api/imports', { token: acme.tokens.admin, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  const done = await t.request('GET', `/api/imports/${created.body.import.id}`, { token: acme.tokens.admin });
  expect(done.body.import.status, JSON.stringify(done.body.import)).toBe('COMPLETE');
  return done.body.import;
}

const leaveOfWeek = async () => (await t.request('GET', `/api/practitioner_leave?start_date=${WEEK.start_date}&end_date=${WEEK.end_date}`, { token: acme.tokens.staff })).body.leave;

async function localPractitioner(externalId: string): Promise<number> {
  const [row] = await t.ctx.db.select({ id: resourceMaps.resource_id }).from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Practitioner'), eq(resourceMaps.external_id, externalId)));
  return row.id;
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 7, startDate: '2026-11-23', weeks: 2, patients: 80, practitioners: 5, inactivePractitioners: 1 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  const connected = await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } });
  expect(connected.status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe("importing Cliniko's unavailable blocks", () => {
  let afternoonBlock: string;
  let dayBlock: string;

  it("imports each practitioner's blocks of the range as their leave, with the block's id and notes", async () => {
    const result = await runImport();
    expect(result.result).toMatchObject({ leave_imported: 2, leave_removed: 0 });
    const [first, second] = sandbox.dataset.practitioners.filter((practitioner) => practitioner.active);
    [afternoonBlock, dayBlock] = sandbox.dataset.unavailableBlocks.map((block) => block.id);
    const leave = await leaveOfWeek();
    expect(leave).toEqual([
      expect.objectContaining({
        practitioner_id: await localPractitioner(first.id), source: 'cliniko', cliniko_block_id: afternoonBlock, reason: 'Afternoon off: medical appointment',
        start_time: '12:30', end_time: '17:00', created_by_name: 'Cliniko',
      }),
      expect.objectContaining({
        practitioner_id: await localPractitioner(second.id), source: 'cliniko', cliniko_block_id: dayBlock, reason: 'Annual leave',
        start_time: null, end_time: null,
      }),
    ]);
    expect(leave[1].start_date).toBe(leave[1].end_date);
    // Again, unchanged: the same two rows.
    await runImport();
    expect((await leaveOfWeek()).map((row: any) => row.id)).toEqual(leave.map((row: any) => row.id));
  });

  it('is changed in Cliniko only: changing or removing imported leave here answers 409 in words', async () => {
    const [imported] = await leaveOfWeek();
    const body = { practitioner_id: imported.practitioner_id, start_date: imported.start_date, end_date: imported.end_date };
    const changed = await t.request('PUT', `/api/practitioner_leave/${imported.id}`, { token: acme.tokens.admin, body });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toMatch(/imported from Cliniko .*change or remove it in Cliniko/);
    expect((await t.request('DELETE', `/api/practitioner_leave/${imported.id}`, { token: acme.tokens.admin })).status).toBe(409);
  });

  it('follows Cliniko: a changed block changes its leave, a removed one removes it, leave entered here stays', async () => {
    const afternoon = sandbox.dataset.unavailableBlocks.find((block) => block.id === afternoonBlock)!;
    const manual = await t.request('POST', '/api/practitioner_leave', {
      token: acme.tokens.admin, body: { practitioner_id: acme.practitionerIds[0], start_date: '2026-12-02', end_date: '2026-12-02', reason: 'Course' },
    });
    expect(manual.status).toBe(201);
    afternoon.starts_at = afternoon.starts_at.replace('T02:30:00Z', 'T03:00:00Z'); // 13:00 in Brisbane
    afternoon.notes = 'Afternoon off';
    afternoon.updated_at = '2026-11-29T00:00:00Z';
    const day = sandbox.dataset.unavailableBlocks.find((block) => block.id === dayBlock)!;
    day.deleted_at = '2026-11-29T00:00:00Z';

    const result = await runImport();
    expect(result.result).toMatchObject({ leave_imported: 1, leave_removed: 1 });
    const leave = await leaveOfWeek();
    expect(leave.map((row: any) => [row.cliniko_block_id, row.source, row.start_time, row.reason]).sort()).toEqual([
      [afternoonBlock, 'cliniko', '13:00', 'Afternoon off'],
      [null, 'manual', null, 'Course'],
    ].sort());
  });

  it('leaves imported leave outside the imported range alone', async () => {
    const day = sandbox.dataset.unavailableBlocks.find((block) => block.id === afternoonBlock)!;
    day.deleted_at = '2026-11-29T00:00:00Z';
    const result = await runImport({ start_date: '2026-11-23', end_date: '2026-11-29' });
    expect(result.result).toMatchObject({ leave_imported: 0, leave_removed: 0 });
    expect((await leaveOfWeek()).map((row: any) => row.cliniko_block_id)).toContain(afternoonBlock);
  });
});
