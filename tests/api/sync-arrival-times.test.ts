// Local arrival times and automatic sync: an import between an arrival-time edit and the next export keeps the
// edit, unless the PMS moved the appointment since the last import (then the PMS time wins and the change log says
// why). The scheduler is driven directly with a fixed clock: imports at :05, exports at :35.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments, resourceMaps } from '../../server/src/db/schema';
import { isoAt, startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { drainJobs, scheduleAutomaticSync } from './support/jobs';

let t: TestApp;
let sandbox: SandboxHandle;
let acme: BusinessFixture;

const FAST = { maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, requestTimeoutMs: 3_000 };
// Tuesday 24 November 2026, 09:05 in Brisbane; the automatic range is 24 Nov to 1 Dec.
const FIRST_IMPORT = new Date('2026-11-23T23:05:00Z');
const hoursLater = (hours: number, minutes = 0) => new Date(FIRST_IMPORT.getTime() + hours * 3600_000 + minutes * 60_000);
const MINUTE = 60_000;

/** Runs whatever the scheduler enqueues at `now` to completion and returns the jobs' ids. */
async function tick(now: Date) {
  const ids = await scheduleAutomaticSync(t.ctx.db, now);
  await drainJobs(t.ctx, { tuning: FAST, retryDelayMs: 0 });
  return ids;
}

async function localCopy(externalId: string) {
  const [map] = await t.ctx.db.select().from(resourceMaps)
    .where(and(eq(resourceMaps.business_account_id, acme.businessAccountId), eq(resourceMaps.resource_type, 'Appointment'), eq(resourceMaps.external_id, externalId)));
  const [row] = await t.ctx.db.select().from(appointments).where(eq(appointments.id, map.resource_id));
  return row;
}

const setArrival = (id: number, arriveAt: Date) =>
  t.request('PUT', `/api/appointments/${id}/update_arrival_time`, { token: acme.tokens.staff, body: { arrive_at: arriveAt.toISOString() } });

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 11, startDate: '2026-11-23', weeks: 2, patients: 40, practitioners: 3, inactivePractitioners: 0 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  acme = await createBusinessFixture(t, 'acme');
  expect((await t.request('POST', '/api/provider_account', { token: acme.tokens.admin, body: { api_key: sandbox.apiKey } })).status).toBe(201);
  await drainJobs(t.ctx, { tuning: FAST });
  const settings = await t.request('PUT', '/api/sync_settings', {
    token: acme.tokens.admin,
    body: { enable_auto_import: true, enable_auto_export: true, ahead_days: 7, filters: { practitioner_ids: [], appointment_type_ids: [], business_location_ids: [] } },
  });
  expect(settings.status).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('automatic sync and local arrival times', () => {
  it('keeps an arrival time edited after an import through the next hourly import, and the :35 export writes it', async () => {
    // 09:05 and 09:35: the hourly import and export run (the first tick also catches up the previous :35 slot).
    expect(await tick(FIRST_IMPORT)).toHaveLength(2);
    expect(await tick(hoursLater(0, 30))).toHaveLength(1);
    const [kept, moved] = sandbox.dataset.appointments
      .filter((a) => a.starts_at >= '2026-11-24T00:00:00Z' && a.starts_at < '2026-11-24T06:00:00Z' && !a.cancelled_at && !a.archived_at && !a.deleted_at);
    const keptRow = await localCopy(kept.id);
    const movedRow = await localCopy(moved.id);
    expect(keptRow.arrive_at!.toISOString()).toBe(new Date(kept.starts_at).toISOString());

    // 09:50: a coordinator moves both arrivals 15 minutes later; nothing is exported yet.
    const keptArrival = new Date(Date.parse(kept.starts_at) + 15 * MINUTE);
    const movedArrival = new Date(Date.parse(moved.starts_at) + 15 * MINUTE);
    expect((await setArrival(keptRow.id, keptArrival)).status).toBe(200);
    expect((await setArrival(movedRow.id, movedArrival)).status).toBe(200);
    // Meanwhile someone moves the second appointment an hour later in Cliniko.
    const pmsStart = isoAt(Date.parse(moved.starts_at) + 60 * MINUTE);
    Object.assign(moved, {
      starts_at: pmsStart, ends_at: isoAt(Date.parse(moved.ends_at) + 60 * MINUTE), updated_at: isoAt(Date.now()),
    });

    // 10:05: the automatic import.
    const [importId] = await tick(hoursLater(1));
    const job = await t.request('GET', `/api/imports/${importId}`, { token: acme.tokens.admin });
    expect(job.body.import).toMatchObject({ status: 'COMPLETE', automatic: true });
    expect(job.body.import.result.appointments_updated).toBe(1);
    // The unexported local arrival time survives an import of an appointment the PMS did not move.
    expect((await localCopy(kept.id)).arrive_at!.toISOString()).toBe(keptArrival.toISOString());
    // The PMS moved the other one since the last import: its time wins, and the change log says why.
    const movedNow = await localCopy(moved.id);
    expect(movedNow.starts_at.toISOString()).toBe(new Date(pmsStart).toISOString());
    expect(movedNow.arrive_at!.toISOString()).toBe(new Date(pmsStart).toISOString());
    const details = await t.request('GET', `/api/appointments/${movedRow.id}/extra_details`, { token: acme.tokens.staff });
    const last = details.body.versions.at(-1);
    expect(last).toMatchObject({
      whodunnit: `Import #${importId} (automatic)`,
      reason: "Moved in Cliniko since the last import: Cliniko's time replaced the local arrival time "
        + `${keptOrMovedLocal(movedArrival)} that was not exported.`,
    });
    expect(last.object_changes.arrive_at).toEqual([movedArrival.toISOString(), new Date(pmsStart).toISOString()]);
    // Ordinary changes carry no reason.
    expect(details.body.versions[0].reason ?? null).toBeNull();

    // 10:35: the automatic export writes the kept arrival time to the PMS.
    const [exportId] = await tick(hoursLater(1, 30));
    const exported = await t.request('GET', `/api/exports/${exportId}`, { token: acme.tokens.admin });
    expect(exported.body.export.status).toBe('COMPLETE');
    expect(exported.body.export.result.exported).toBe(1);
    expect(Date.parse(kept.starts_at)).toBe(keptArrival.getTime());

    // 11:05: the next import finds everything as it was.
    const [nextImport] = await tick(hoursLater(2));
    const again = await t.request('GET', `/api/imports/${nextImport}`, { token: acme.tokens.admin });
    expect(again.body.import.result).toMatchObject({ appointments_created: 0, appointments_updated: 0, appointments_cancelled: 0 });
    const keptNow = await localCopy(kept.id);
    expect([keptNow.starts_at.toISOString(), keptNow.arrive_at!.toISOString()]).toEqual([keptArrival.toISOString(), keptArrival.toISOString()]);
  });
});

/** HH:mm in Brisbane (the fixture business's time zone). */
function keptOrMovedLocal(at: Date): string {
  return at.toLocaleTimeString('en-GB', { timeZone: 'Australia/Brisbane', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
}
