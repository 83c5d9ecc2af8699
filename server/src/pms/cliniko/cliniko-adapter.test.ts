import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { CANCELLATION_REASONS, collectPages, type CreateAppointmentInput, type PmsAppointment } from '../adapter';
import {
  PmsAuthError,
  PmsConflictError,
  PmsMalformedRecordError,
  PmsNotFoundError,
  PmsRateLimitError,
  PmsResponseError,
  PmsUnavailableError,
  PmsUnclearWriteError,
  PmsValidationError,
} from '../errors';
import * as pms from '../index';
import { createSandboxDataset, NO_FAULTS, SANDBOX_DEMO_API_KEY, startSandbox, type SandboxHandle } from '../sandbox';
import { ClinikoAdapter, type ClinikoAdapterOptions } from './cliniko-adapter';
import type { ClinikoHttpEvent } from './http-client';
import { SlidingWindowRateLimiter } from './rate-limiter';

// Small, fixed-date data keeps the suite fast and independent of today's date.
const DATASET = { seed: 7, patients: 120, practitioners: 6, weeks: 2, startDate: '2026-11-16' };
const FROM = '2026-11-15T14:00:00Z'; // Monday 16 Nov 00:00 in Brisbane
const TO = '2026-11-29T14:00:00Z';

let sandbox: SandboxHandle;

function adapter(overrides: Partial<ClinikoAdapterOptions> = {}): ClinikoAdapter {
  return new ClinikoAdapter({
    apiKey: sandbox.apiKey,
    contactEmail: 'dev@rounds.test',
    baseUrl: sandbox.url,
    rateLimiter: new SlidingWindowRateLimiter(10_000, 1000),
    requestTimeoutMs: 2000,
    backoffBaseMs: 5,
    backoffMaxMs: 20,
    ...overrides,
  });
}

async function allAppointments(client: ClinikoAdapter, includeCancelledAndArchived = true): Promise<PmsAppointment[]> {
  const { records, invalidRecords } = await collectPages(
    client.listIndividualAppointments({ from: FROM, to: TO, includeCancelledAndArchived }),
  );
  expect(invalidRecords).toEqual([]);
  return records;
}

beforeAll(async () => {
  sandbox = await startSandbox({ ...DATASET, dataset: createSandboxDataset(DATASET) });
});

afterAll(async () => {
  await sandbox.close();
});

beforeEach(() => {
  sandbox.setFaults(NO_FAULTS);
  sandbox.requestLog.length = 0;
});

describe('ClinikoAdapter against the sandbox', () => {
  it('checks the connection and sends Basic auth, Accept and a User-Agent with the contact email', async () => {
    const info = await adapter().checkConnection();
    expect(info).toEqual({ user_id: sandbox.dataset.user.id, user_name: 'Sandy Box', email: 'sandbox-admin@example.com' });
    expect(sandbox.requestLog[0]).toMatchObject({
      method: 'GET',
      url: '/v1/user',
      status: 200,
      accept: 'application/json',
      userAgent: 'Rounds (dev@rounds.test)',
    });
  });

  it("says its records' coordinates are synthetic only when it holds the sandbox's demo key", () => {
    expect(adapter({ apiKey: SANDBOX_DEMO_API_KEY }).syntheticCoordinates).toBe(true);
    expect(adapter({ apiKey: 'MS0xMjM0NTY3ODkwLXJlYWwta2V5-au1' }).syntheticCoordinates).toBe(false);
  });

  it('turns 401 into PmsAuthError without retrying', async () => {
    const wrong = adapter({ apiKey: 'not-the-key-au1' });
    await expect(wrong.checkConnection()).rejects.toBeInstanceOf(PmsAuthError);
    await expect(collectPages(wrong.listBusinesses())).rejects.toBeInstanceOf(PmsAuthError);
    expect(sandbox.requestLog.map((r) => r.status)).toEqual([401, 401]);
  });

  it('follows links.next with per_page=100 and returns every appointment once, ids as 19-digit strings', async () => {
    const pages = [];
    for await (const page of adapter().listIndividualAppointments({ from: FROM, to: TO, includeCancelledAndArchived: true })) {
      pages.push(page);
    }
    const expected = sandbox.dataset.appointments.filter((a) => a.starts_at >= FROM && a.starts_at < TO);
    expect(expected.length).toBeGreaterThan(250);
    expect(pages.length).toBe(Math.ceil(expected.length / 100));
    expect(pages.map((p) => p.pageNumber)).toEqual(pages.map((_, i) => i + 1));
    expect(pages.every((p) => p.totalEntries === expected.length)).toBe(true);
    const records = pages.flatMap((p) => p.records);
    expect(records.map((r) => r.external_id).sort()).toEqual(expected.map((a) => a.id).sort());
    for (const record of records) expect(record.external_id).toMatch(/^\d{19}$/);
    expect(sandbox.requestLog.every((r) => r.url.includes('per_page=100'))).toBe(true);
  });

  it('normalises related ids from links.self and timestamps to UTC ISO', async () => {
    const [record] = (await allAppointments(adapter())).filter((a) => a.cancelled_at === null);
    const source = sandbox.dataset.appointments.find((a) => a.id === record.external_id)!;
    expect(record).toMatchObject({
      patient_id: source.patient_id,
      practitioner_id: source.practitioner_id,
      appointment_type_id: source.appointment_type_id,
      business_id: source.business_id,
      starts_at: new Date(source.starts_at).toISOString(),
      ends_at: new Date(source.ends_at).toISOString(),
      deleted: false,
    });
  });

  it('hides cancelled, archived and deleted appointments unless asked to include them', async () => {
    const all = await allAppointments(adapter(), true);
    const visible = await allAppointments(adapter(), false);
    const hiddenCount = all.filter((a) => a.cancelled_at || a.archived_at || a.deleted).length;
    expect(all.some((a) => a.cancelled_at)).toBe(true);
    expect(all.some((a) => a.archived_at)).toBe(true);
    expect(visible.length).toBe(all.length - hiddenCount);
    expect(visible.every((a) => !a.cancelled_at && !a.archived_at && !a.deleted)).toBe(true);
  });

  it('filters by practitioners, appointment types, businesses and updated_at', async () => {
    const client = adapter();
    const all = await allAppointments(client);
    const [p1, p2] = sandbox.dataset.practitioners.filter((p) => p.active);
    const byPractitioner = await collectPages(
      client.listIndividualAppointments({ from: FROM, to: TO, practitionerIds: [p1.id, p2.id], includeCancelledAndArchived: true }),
    );
    expect(byPractitioner.records.length).toBe(all.filter((a) => a.practitioner_id === p1.id || a.practitioner_id === p2.id).length);
    expect(byPractitioner.records.length).toBeGreaterThan(0);

    const type = sandbox.dataset.appointmentTypes.find((t) => t.name === 'Personal care')!;
    const business = sandbox.dataset.businesses[1];
    const narrowed = await collectPages(
      client.listIndividualAppointments({
        from: FROM,
        to: TO,
        appointmentTypeIds: [type.id],
        businessIds: [business.id],
        includeCancelledAndArchived: true,
      }),
    );
    expect(narrowed.records.length).toBe(all.filter((a) => a.appointment_type_id === type.id && a.business_id === business.id).length);

    const oneDay = await collectPages(
      client.listIndividualAppointments({ from: '2026-11-16T14:00:00Z', to: '2026-11-17T14:00:00Z', includeCancelledAndArchived: true }),
    );
    expect(oneDay.records.length).toBeGreaterThan(0);
    expect(oneDay.records.every((a) => a.starts_at >= '2026-11-16T14:00:00.000Z' && a.starts_at < '2026-11-17T14:00:00.000Z')).toBe(true);

    const cutoff = [...all].sort((a, b) => a.updated_at.localeCompare(b.updated_at))[Math.floor(all.length / 2)].updated_at;
    const recent = await collectPages(
      client.listIndividualAppointments({ from: FROM, to: TO, updatedSince: cutoff, includeCancelledAndArchived: true }),
    );
    expect(recent.records.length).toBe(all.filter((a) => a.updated_at > cutoff).length);

    const filters = decodeURIComponent(sandbox.requestLog.at(-1)!.url);
    expect(filters).toContain(`q[]=updated_at:>${cutoff.replace('.000Z', 'Z')}`);
    expect(filters).toContain('q[]=starts_at:>=2026-11-15T14:00:00Z');
    expect(filters).toContain('q[]=cancelled_at:*');
    expect(filters).toContain('q[]=archived_at:*');
  });

  it('lists reference data: businesses, active and inactive practitioners, appointment types', async () => {
    const client = adapter();
    const businesses = await collectPages(client.listBusinesses());
    expect(businesses.records.map((b) => b.name)).toEqual(sandbox.dataset.businesses.map((b) => b.business_name));
    expect(businesses.records[0]).toMatchObject({ city: 'Chermside', state: 'QLD', time_zone: 'Australia/Brisbane' });

    const practitioners = await collectPages(client.listPractitioners());
    expect(practitioners.records).toHaveLength(sandbox.dataset.practitioners.length);
    const inactive = practitioners.records.filter((p) => !p.active).map((p) => p.external_id);
    expect(inactive.sort()).toEqual(sandbox.dataset.practitioners.filter((p) => !p.active).map((p) => p.id).sort());

    const types = await collectPages(client.listAppointmentTypes());
    expect(types.records.map((t) => [t.name, t.duration_in_minutes])).toEqual([
      ['Personal care', 60],
      ['Nursing visit', 45],
      ['Physiotherapy', 60],
      ['Domestic assistance', 90],
      ['Wound care', 30],
      ['Medication check', 15],
    ]);

    // Each practitioner's appointment types, read page by page (the adapter asks 100 a page; 2 here shows the paging).
    const paged = adapter({ perPage: 2 });
    for (const practitioner of sandbox.dataset.practitioners) {
      const delivered = await collectPages(paged.listPractitionerAppointmentTypes(practitioner.id));
      expect(delivered.records.map((type) => type.external_id).sort()).toEqual([...practitioner.appointment_type_ids].sort());
    }
  });

  it("lists practitioners' unavailable blocks overlapping a range, by practitioner; archived ones hidden", async () => {
    const client = adapter();
    const { records, invalidRecords } = await collectPages(client.listUnavailableBlocks({ from: FROM, to: TO }));
    expect(invalidRecords).toEqual([]);
    // The dataset's last week: the first active practitioner's afternoon off, the second's day of leave.
    const [first, second] = sandbox.dataset.practitioners.filter((practitioner) => practitioner.active);
    expect(records.map((block) => [block.practitioner_id, block.notes])).toEqual([
      [first.id, 'Afternoon off: medical appointment'], [second.id, 'Annual leave'],
    ]);
    const [afternoon, day] = records;
    expect(afternoon.external_id).toMatch(/^\d{19}$/);
    expect(afternoon.starts_at).toMatch(/^2026-11-2\dT02:30:00\.000Z$/); // 12:30 in Brisbane
    expect(Date.parse(afternoon.ends_at) - Date.parse(afternoon.starts_at)).toBe(4.5 * 3_600_000);
    expect(Date.parse(day.ends_at) - Date.parse(day.starts_at)).toBe(24 * 3_600_000);
    expect(day.starts_at).toMatch(/T14:00:00\.000Z$/); // midnight in Brisbane

    const ofSecond = await collectPages(client.listUnavailableBlocks({ from: FROM, to: TO, practitionerIds: [second.id] }));
    expect(ofSecond.records.map((block) => block.external_id)).toEqual([day.external_id]);
    const before = await collectPages(client.listUnavailableBlocks({ from: FROM, to: afternoon.starts_at }));
    expect(before.records).toEqual([]);
    const stored = sandbox.dataset.unavailableBlocks.find((block) => block.id === day.external_id)!;
    stored.archived_at = stored.updated_at;
    try {
      expect((await collectPages(client.listUnavailableBlocks({ from: FROM, to: TO }))).records.map((block) => block.external_id)).toEqual([afternoon.external_id]);
    } finally {
      stored.archived_at = null;
    }
  });

  it('lists patients with addresses, phones and the sandbox coordinates; by ids in batches', async () => {
    const client = adapter();
    const all = await collectPages(client.listPatients({ includeArchived: true }));
    expect(all.records).toHaveLength(sandbox.dataset.patients.length);
    const withAddress = all.records.find((p) => p.address_1 !== null)!;
    expect(withAddress).toMatchObject({ state: 'QLD', country: 'Australia', time_zone: 'Australia/Brisbane' });
    expect(withAddress.latitude).toBeLessThan(-27);
    expect(withAddress.phone_numbers[0]).toMatchObject({ type: 'Mobile', number: expect.stringMatching(/^04\d\d \d{3} \d{3}$/) });

    const unarchived = await collectPages(client.listPatients());
    expect(unarchived.records.length).toBe(sandbox.dataset.patients.filter((p) => !p.archived_at).length);

    const ids = sandbox.dataset.patients.slice(0, 105).map((p) => p.id);
    sandbox.requestLog.length = 0;
    const chosen = await collectPages(client.listPatients({ ids, includeArchived: true }));
    expect(chosen.records.map((p) => p.external_id).sort()).toEqual([...ids].sort());
    expect(sandbox.requestLog).toHaveLength(2); // 100 ids per request
  });

  it('waits until X-RateLimit-Reset after a 429 and then succeeds', async () => {
    sandbox.setFaults({ rateLimitPerMinute: 2, rateLimitWindowMs: 300 });
    const events: ClinikoHttpEvent[] = [];
    const client = adapter({ onEvent: (e) => events.push(e) });
    const began = Date.now();
    const { records } = await collectPages(client.listAppointmentTypes());
    await client.checkConnection();
    await client.checkConnection();
    expect(records).toHaveLength(6);
    const limited = events.filter((e) => e.type === 'rate_limited');
    expect(limited.length).toBeGreaterThan(0);
    const first = limited[0] as Extract<ClinikoHttpEvent, { type: 'rate_limited' }>;
    expect(first.resetAt).not.toBeNull();
    // It resumed only after the announced reset.
    const resumed = sandbox.requestLog.find((r, i) => i > 0 && sandbox.requestLog[i - 1].status === 429 && r.status === 200)!;
    expect(resumed.at).toBeGreaterThanOrEqual(first.resetAt!.getTime());
    expect(Date.now() - began).toBeLessThan(5000);
  });

  it('keeps under its configured rate, so a server with the same limit never answers 429', async () => {
    sandbox.setFaults({ rateLimitPerMinute: 4, rateLimitWindowMs: 250 });
    // No injected limiter: the adapter builds its own from requestsPerMinute / rateLimitWindowMs.
    const client = adapter({ rateLimiter: undefined, requestsPerMinute: 4, rateLimitWindowMs: 250, perPage: 40 });
    const began = Date.now();
    const { records } = await collectPages(client.listPatients({ includeArchived: true }));
    const elapsed = Date.now() - began;
    expect(records).toHaveLength(sandbox.dataset.patients.length);
    const requests = sandbox.requestLog.length;
    expect(requests).toBe(Math.ceil(sandbox.dataset.patients.length / 40));
    expect(sandbox.requestLog.filter((r) => r.status === 429)).toEqual([]);
    // Beyond the first burst of 4, each further 4 requests wait for a new window.
    expect(elapsed).toBeGreaterThanOrEqual(Math.floor((requests - 1) / 4) * 250);
  });

  it('gives up with PmsRateLimitError when the reset is too far away', async () => {
    sandbox.setFaults({ rateLimitPerMinute: 1, rateLimitWindowMs: 60_000 });
    const client = adapter({ maxRateLimitWaitMs: 1000 });
    await client.checkConnection();
    const error = await client.checkConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmsRateLimitError);
    expect((error as PmsRateLimitError).resetAt!.getTime()).toBeGreaterThan(Date.now() + 30_000);
  });

  it('retries 5xx with backoff and then succeeds', async () => {
    sandbox.setFaults({ errorNext: 3 });
    const events: ClinikoHttpEvent[] = [];
    const info = await adapter({ onEvent: (e) => events.push(e) }).checkConnection();
    expect(info.user_id).toBe(sandbox.dataset.user.id);
    expect(sandbox.requestLog.map((r) => r.status)).toEqual([503, 503, 503, 200]);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2, 3]);
  });

  it('ends in PmsUnavailableError after the allowed attempts', async () => {
    sandbox.setFaults({ errorRate: 1 });
    const error = await adapter({ maxAttempts: 3 }).checkConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmsUnavailableError);
    expect((error as PmsUnavailableError).attempts).toBe(3);
    expect(sandbox.requestLog).toHaveLength(3);
  });

  it('times out slow requests, retries them, and reports the timeout', async () => {
    sandbox.setFaults({ latencyMs: 1500 });
    const began = Date.now();
    const error = await adapter({ requestTimeoutMs: 60, maxAttempts: 2 }).checkConnection().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmsUnavailableError);
    expect((error as Error).message).toMatch(/timed out after 60 ms/);
    expect((error as PmsUnavailableError).attempts).toBe(2);
    // Waiting for the slow answers would take 3 s.
    expect(Date.now() - began).toBeLessThan(2000);
  });

  it('retries dropped connections', async () => {
    sandbox.setFaults({ dropNext: 2 });
    const { records } = await collectPages(adapter().listBusinesses());
    expect(records).toHaveLength(2);
    expect(sandbox.requestLog.map((r) => r.status)).toEqual(['dropped', 'dropped', 200]);
  });

  it('survives a mix of random faults and still returns every record exactly once', async () => {
    sandbox.setFaults({ errorRate: 0.2, dropConnectionRate: 0.15, latencyMs: 2 });
    const records = await allAppointments(adapter({ maxAttempts: 8, perPage: 20 }));
    sandbox.setFaults({ errorRate: 0, dropConnectionRate: 0, latencyMs: 0 });
    const clean = await allAppointments(adapter());
    expect(records.map((r) => r.external_id)).toEqual(clean.map((r) => r.external_id));
    expect(sandbox.requestLog.some((r) => r.status === 'dropped')).toBe(true);
    expect(sandbox.requestLog.some((r) => typeof r.status === 'number' && r.status >= 500)).toBe(true);
  });

  it('skips malformed records and reports each with the field at fault, keeping the rest of the page', async () => {
    sandbox.setFaults({ malformedRate: 0.3 });
    const pages = [];
    for await (const page of adapter().listIndividualAppointments({ from: FROM, to: TO, includeCancelledAndArchived: true })) {
      pages.push(page);
    }
    const valid = pages.flatMap((p) => p.records);
    const invalid = pages.flatMap((p) => p.invalidRecords);
    const total = sandbox.dataset.appointments.filter((a) => a.starts_at >= FROM && a.starts_at < TO).length;
    expect(invalid.length).toBeGreaterThan(0);
    expect(valid.length + invalid.length).toBe(total);
    for (const bad of invalid) {
      expect(bad.resource).toBe('individual_appointments');
      expect(bad.problems.length).toBeGreaterThan(0);
      expect(bad.problems.every((p) => /^(id|starts_at|updated_at|practitioner): /.test(p))).toBe(true);
    }
    expect(invalid.some((bad) => bad.problems.some((p) => p.startsWith('id: must be a string')))).toBe(true);
    expect(invalid.some((bad) => bad.problems.includes('practitioner: link is missing'))).toBe(true);
  });

  it('throws PmsMalformedRecordError for a malformed single record', async () => {
    const id = sandbox.dataset.appointments[0].id;
    sandbox.setFaults({ malformedRate: 1 });
    await expect(adapter().getIndividualAppointment(id)).rejects.toBeInstanceOf(PmsMalformedRecordError);
  });

  it('round-trips a PATCH of appointment times and bumps updated_at', async () => {
    const client = adapter();
    const target = sandbox.dataset.appointments.find((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at)!;
    const before = await client.getIndividualAppointment(target.id);
    const startsAt = new Date(Date.parse(before.starts_at) + 30 * 60_000).toISOString();
    const endsAt = new Date(Date.parse(before.ends_at) + 30 * 60_000).toISOString();

    const updated = await client.updateAppointmentTimes(target.id, { starts_at: startsAt, ends_at: endsAt, expectedUpdatedAt: before.updated_at });
    expect(updated).toMatchObject({ external_id: target.id, starts_at: startsAt, ends_at: endsAt });
    expect(updated.updated_at > before.updated_at).toBe(true);
    expect(await client.getIndividualAppointment(target.id)).toEqual(updated);
    expect(sandbox.requestLog.find((r) => r.method === 'PATCH')).toMatchObject({ url: `/v1/individual_appointments/${target.id}`, status: 200 });

    // The appointment shows up in an incremental listing after the change.
    const changed = await collectPages(
      client.listIndividualAppointments({ from: FROM, to: TO, updatedSince: before.updated_at, includeCancelledAndArchived: true }),
    );
    expect(changed.records.map((r) => r.external_id)).toContain(target.id);

    // A stale expectedUpdatedAt is a conflict and writes nothing.
    await expect(
      client.updateAppointmentTimes(target.id, { starts_at: before.starts_at, ends_at: before.ends_at, expectedUpdatedAt: before.updated_at }),
    ).rejects.toBeInstanceOf(PmsConflictError);
    expect((await client.getIndividualAppointment(target.id)).starts_at).toBe(startsAt);
  });

  it('moves an appointment to another practitioner with its times (practitioner_id), and refuses one that does not exist', async () => {
    const client = adapter();
    const target = sandbox.dataset.appointments.find((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at)!;
    const other = sandbox.dataset.practitioners.find((p) => p.active && p.id !== target.practitioner_id)!;
    const before = await client.getIndividualAppointment(target.id);
    const updated = await client.updateAppointmentTimes(target.id, {
      starts_at: before.starts_at, ends_at: before.ends_at, practitioner_id: other.id, expectedUpdatedAt: before.updated_at,
    });
    expect(updated).toMatchObject({ external_id: target.id, practitioner_id: other.id, starts_at: before.starts_at });
    const error = await client.updateAppointmentTimes(target.id, { starts_at: before.starts_at, ends_at: before.ends_at, practitioner_id: '1000000000000000009' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmsValidationError);
    expect((error as PmsValidationError).errors).toEqual({ practitioner_id: 'does not exist' });
    expect((await client.getIndividualAppointment(target.id)).practitioner_id).toBe(other.id);
  });

  it('reports 422 from the PMS with its message and field errors', async () => {
    const client = adapter();
    const target = sandbox.dataset.appointments.find((a) => !a.archived_at && !a.deleted_at)!;
    // Bypass the adapter's own check to see the sandbox's 422.
    const response = await fetch(`${sandbox.url}/individual_appointments/${target.id}`, {
      method: 'PATCH',
      headers: { Authorization: `Basic ${Buffer.from(`${sandbox.apiKey}:`).toString('base64')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ starts_at: '2026-11-20T01:00:00Z', ends_at: '2026-11-20T00:00:00Z' }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ message: 'Validation Failed', errors: { ends_at: 'must be after starts at' } });

    const error = await client
      .updateAppointmentTimes(target.id, { starts_at: '2026-11-20T01:00:00Z', ends_at: 'tomorrow' })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ends_at/);
    await expect(
      client.updateAppointmentTimes(target.id, { starts_at: '2026-11-20T01:00:00Z', ends_at: '2026-11-20T01:00:00Z' }),
    ).rejects.toBeInstanceOf(PmsValidationError);
  });

  it('maps a missing appointment to PmsNotFoundError and still reads archived ones', async () => {
    const client = adapter();
    await expect(client.getIndividualAppointment('1000000000000000001')).rejects.toBeInstanceOf(PmsNotFoundError);
    const archived = sandbox.dataset.appointments.find((a) => a.archived_at)!;
    expect((await client.getIndividualAppointment(archived.id)).archived_at).not.toBeNull();
  });

  it('refuses to follow a links.next that leaves the configured API root', async () => {
    const client = adapter({ baseUrl: sandbox.url.replace('127.0.0.1', 'localhost') });
    // The sandbox builds links from the Host header, so they stay on "localhost" and are accepted...
    expect((await collectPages(client.listPatients({ includeArchived: true }))).records.length).toBe(sandbox.dataset.patients.length);
    // ...while a link to another origin, or outside the API root, is refused before the key is sent.
    const http = (client as unknown as { http: { assertOwnUrl(url: string): string } }).http;
    expect(() => http.assertOwnUrl('https://evil.example/v1/patients?page=2')).toThrow(PmsResponseError);
    expect(() => http.assertOwnUrl(`${sandbox.origin.replace('127.0.0.1', 'localhost')}/__sandbox/faults`)).toThrow(
      PmsResponseError,
    );
  });

  it('stops when the caller aborts', async () => {
    sandbox.setFaults({ latencyMs: 200 });
    const controller = new AbortController();
    const pending = adapter().checkConnection({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('import cancelled')), 20);
    await expect(pending).rejects.toThrow('import cancelled');

    // Also while waiting out a retry backoff.
    sandbox.setFaults({ latencyMs: 0, errorRate: 1 });
    const backingOff = new AbortController();
    const began = Date.now();
    const retrying = adapter({ backoffBaseMs: 5_000, backoffMaxMs: 5_000 }).checkConnection({ signal: backingOff.signal });
    setTimeout(() => backingOff.abort(new Error('job cancelled')), 50);
    await expect(retrying).rejects.toThrow('job cancelled');
    // Sitting out the backoff would take 5 s.
    expect(Date.now() - began).toBeLessThan(2500);
  });

  describe('writes', () => {
    let slot = 0;
    /**
     * A create on the Saturday of the first week (nobody works then), each call an hour later, with a unique
     * reference in the notes as the bookings module puts there.
     */
    function newBooking(index = 0): CreateAppointmentInput {
      const practitioner = sandbox.dataset.practitioners.filter((p) => p.active)[index];
      const startsAt = Date.parse('2026-11-20T14:00:00Z') + slot * 3_600_000;
      slot += 1;
      return {
        practitioner_id: practitioner.id,
        appointment_type_id: practitioner.appointment_type_ids[0],
        patient_id: sandbox.dataset.patients.find((p) => !p.archived_at && !p.deleted_at)!.id,
        business_id: practitioner.business_id,
        starts_at: new Date(startsAt).toISOString(),
        ends_at: new Date(startsAt + 45 * 60_000).toISOString(),
        notes: `Booked in Rounds (ref rounds-${slot})`,
      };
    }

    /** What the bookings module does after an unclear answer: list the practitioner's appointments around the start. */
    async function lookUp(client: ClinikoAdapter, booking: CreateAppointmentInput, updatedSince?: string): Promise<PmsAppointment[]> {
      const start = Date.parse(booking.starts_at);
      const { records } = await collectPages(client.listIndividualAppointments({
        from: new Date(start - 3_600_000).toISOString(),
        to: new Date(start + 3_600_000).toISOString(),
        practitionerIds: [booking.practitioner_id],
        updatedSince,
        includeCancelledAndArchived: false,
      }));
      return records.filter((record) => record.notes === booking.notes);
    }

    const posts = () => sandbox.requestLog.filter((r) => r.method === 'POST');
    const stored = (booking: CreateAppointmentInput) => sandbox.dataset.appointments.filter((a) => a.notes === booking.notes);

    it('creates an appointment and answers it normalised; a list finds it at once, also by updatedSince', async () => {
      const client = adapter();
      const booking = newBooking();
      const askedAt = new Date().toISOString();
      const created = await client.createIndividualAppointment(booking);
      expect(created).toMatchObject({
        external_id: expect.stringMatching(/^\d{19}$/),
        practitioner_id: booking.practitioner_id,
        appointment_type_id: booking.appointment_type_id,
        patient_id: booking.patient_id,
        business_id: booking.business_id,
        starts_at: booking.starts_at,
        ends_at: booking.ends_at,
        notes: booking.notes,
        cancelled_at: null,
        deleted: false,
      });
      expect(await client.getIndividualAppointment(created.external_id)).toEqual(created);
      expect(posts()).toEqual([expect.objectContaining({ url: '/v1/individual_appointments', status: 201 })]);
      expect(await lookUp(client, booking)).toEqual([created]);
      expect(await lookUp(client, booking, askedAt)).toEqual([created]);
    });

    it("reports the PMS's 422 field errors and checks times and ids before sending", async () => {
      const client = adapter();
      const inactive = sandbox.dataset.practitioners.find((p) => !p.active)!;
      const booking = { ...newBooking(), practitioner_id: inactive.id };
      const error = await client.createIndividualAppointment(booking).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsValidationError);
      expect(error).toMatchObject({ message: 'Validation Failed', errors: { practitioner_id: 'is not active' } });
      expect(stored(booking)).toEqual([]);

      await expect(client.createIndividualAppointment({ ...booking, ends_at: booking.starts_at })).rejects.toBeInstanceOf(PmsValidationError);
      await expect(client.createIndividualAppointment({ ...booking, patient_id: 'abc' })).rejects.toThrow(/patient_id: must be a string of digits/);
      expect(posts()).toHaveLength(1);
    });

    it('never resends a create the PMS committed but answered 500: PmsUnclearWriteError, and the look-up finds the one appointment', async () => {
      sandbox.setFaults({ commitThenFailNext: 1 });
      const client = adapter();
      const booking = newBooking();
      const error = await client.createIndividualAppointment(booking).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsUnclearWriteError);
      expect(error).toMatchObject({ reason: 'HTTP 500', status: 500 });
      expect(error).not.toBeInstanceOf(PmsUnavailableError);
      expect(posts().map((r) => r.status)).toEqual([500]);
      expect(stored(booking)).toHaveLength(1);
      expect((await lookUp(client, booking)).map((a) => a.external_id)).toEqual([stored(booking)[0].id]);
    });

    it('never resends a create whose connection dropped after the PMS committed it', async () => {
      sandbox.setFaults({ commitThenDropNext: 1 });
      const booking = newBooking();
      const error = await adapter().createIndividualAppointment(booking).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsUnclearWriteError);
      expect(posts().map((r) => r.status)).toEqual(['dropped']);
      expect(stored(booking)).toHaveLength(1);
    });

    it('never resends a create that timed out after the PMS committed it', async () => {
      sandbox.setFaults({ commitThenDelayMs: 400 });
      const booking = newBooking();
      const began = Date.now();
      const error = await adapter({ requestTimeoutMs: 100 }).createIndividualAppointment(booking).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsUnclearWriteError);
      expect((error as PmsUnclearWriteError).reason).toBe('timed out after 100 ms');
      expect(Date.now() - began).toBeLessThan(400);
      expect(stored(booking)).toHaveLength(1);
      sandbox.setFaults({ commitThenDelayMs: 0 });
      await new Promise((resolve) => setTimeout(resolve, 400)); // the abandoned answer
      expect(posts()).toHaveLength(1);
      expect(await lookUp(adapter(), booking)).toHaveLength(1);
    });

    it('after a 500 that committed nothing, the look-up finds none and a second create makes exactly one', async () => {
      sandbox.setFaults({ errorNext: 1 });
      const client = adapter();
      const booking = newBooking();
      await expect(client.createIndividualAppointment(booking)).rejects.toBeInstanceOf(PmsUnclearWriteError);
      expect(await lookUp(client, booking)).toEqual([]);
      const created = await client.createIndividualAppointment(booking);
      expect(await lookUp(client, booking)).toEqual([created]);
      expect(posts().map((r) => r.status)).toEqual([503, 201]);
    });

    it('waits out a 429 (nothing committed) and resends the create once', async () => {
      sandbox.setFaults({ rateLimitNext: 1, rateLimitWindowMs: 200 });
      const booking = newBooking();
      const created = await adapter().createIndividualAppointment(booking);
      expect(posts().map((r) => r.status)).toEqual([429, 201]);
      expect(stored(booking).map((a) => a.id)).toEqual([created.external_id]);
    });

    it('retries a create whose connection was refused (it never reached the PMS)', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as { port: number };
      await new Promise((resolve) => closed.close(resolve));
      const events: ClinikoHttpEvent[] = [];
      const error = await adapter({ baseUrl: `http://127.0.0.1:${port}/v1`, maxAttempts: 3, onEvent: (e) => events.push(e) })
        .createIndividualAppointment(newBooking()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsUnavailableError);
      expect((error as PmsUnavailableError).attempts).toBe(3);
      expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    });

    it('treats a 201 it cannot read as unclear (created, but which one is unknown), not as a failure to create', async () => {
      let requests = 0;
      const fake = createHttpServer((_req, res) => {
        requests += 1;
        res.writeHead(201, { 'Content-Type': 'application/json' }).end(requests === 1 ? '{"id":1}' : 'Created');
      });
      await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
      try {
        const client = adapter({ baseUrl: `http://127.0.0.1:${(fake.address() as { port: number }).port}/v1` });
        const malformed = await client.createIndividualAppointment(newBooking()).catch((e: unknown) => e);
        expect(malformed).toBeInstanceOf(PmsUnclearWriteError);
        expect((malformed as Error).message).toMatch(/created the appointment but its answer is malformed \(id: /);
        const notJson = await client.createIndividualAppointment(newBooking()).catch((e: unknown) => e);
        expect(notJson).toBeInstanceOf(PmsUnclearWriteError);
        expect(notJson).toMatchObject({ status: 201 });
        expect(requests).toBe(2);
      } finally {
        await new Promise((resolve) => fake.close(resolve));
      }
    });

    it("cancels with one of Cliniko's reasons and a note; never resends an unclear cancel", async () => {
      expect(pms.CANCELLATION_REASONS).toBe(CANCELLATION_REASONS);
      expect(CANCELLATION_REASONS).toEqual([
        { code: 10, label: 'Feeling better' }, { code: 20, label: 'Condition worse' }, { code: 30, label: 'Sick' },
        { code: 40, label: 'Away' }, { code: 50, label: 'Other' }, { code: 60, label: 'Work' },
      ]);
      const client = adapter();
      const first = await client.createIndividualAppointment(newBooking());
      await client.cancelIndividualAppointment(first.external_id, { cancellation_reason: 40, cancellation_note: 'In hospital' });
      const cancelled = await client.getIndividualAppointment(first.external_id);
      expect(cancelled).toMatchObject({ cancellation_reason: 'Away', cancelled_at: expect.any(String) });
      expect(sandbox.dataset.appointments.find((a) => a.id === first.external_id)!.cancellation_note).toBe('In hospital');
      const again = await client.cancelIndividualAppointment(first.external_id, { cancellation_reason: 40, cancellation_note: null }).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(PmsValidationError);
      expect((again as PmsValidationError).errors).toEqual({ base: 'Appointment is already cancelled' });
      await expect(client.cancelIndividualAppointment(first.external_id, { cancellation_reason: 15 as 10, cancellation_note: null }))
        .rejects.toThrow(/cancellation_reason: must be one of 10, 20, 30, 40, 50, 60/);
      await expect(client.cancelIndividualAppointment('1000000000000000001', { cancellation_reason: 50, cancellation_note: null }))
        .rejects.toBeInstanceOf(PmsNotFoundError);

      const second = await client.createIndividualAppointment(newBooking());
      sandbox.requestLog.length = 0;
      sandbox.setFaults({ commitThenDropNext: 1 });
      await expect(client.cancelIndividualAppointment(second.external_id, { cancellation_reason: 30, cancellation_note: null }))
        .rejects.toBeInstanceOf(PmsUnclearWriteError);
      expect(sandbox.requestLog.map((r) => `${r.method} ${r.status}`)).toEqual(['PATCH dropped']);
      expect((await client.getIndividualAppointment(second.external_id)).cancellation_reason).toBe('Sick');
    });

    it("says whether an appointment overlaps another of the practitioner's", async () => {
      const client = adapter();
      const seeded = sandbox.dataset.appointments.find((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at && a.starts_at >= FROM)!;
      const practitioner = sandbox.dataset.practitioners.find((p) => p.id === seeded.practitioner_id)!;
      const free = await client.createIndividualAppointment({ ...newBooking(), practitioner_id: practitioner.id, business_id: practitioner.business_id });
      expect(await client.appointmentHasConflicts(free.external_id)).toBe(false);
      const clash = await client.createIndividualAppointment({
        ...newBooking(), practitioner_id: practitioner.id, business_id: practitioner.business_id,
        starts_at: new Date(Date.parse(seeded.starts_at) + 10 * 60_000).toISOString(), ends_at: seeded.ends_at,
      });
      expect(await client.appointmentHasConflicts(clash.external_id)).toBe(true);
      expect(await client.appointmentHasConflicts(seeded.id)).toBe(true);
      await expect(client.appointmentHasConflicts('1000000000000000001')).rejects.toBeInstanceOf(PmsNotFoundError);
    });

    it('retries an update after a committed-but-500 answer (it sets absolute values, so resending is harmless)', async () => {
      const client = adapter();
      const created = await client.createIndividualAppointment(newBooking());
      sandbox.requestLog.length = 0;
      sandbox.setFaults({ commitThenFailNext: 1 });
      const startsAt = new Date(Date.parse(created.starts_at) + 15 * 60_000).toISOString();
      const endsAt = new Date(Date.parse(created.ends_at) + 15 * 60_000).toISOString();
      const updated = await client.updateAppointmentTimes(created.external_id, { starts_at: startsAt, ends_at: endsAt, expectedUpdatedAt: created.updated_at });
      expect(updated).toMatchObject({ starts_at: startsAt, ends_at: endsAt });
      expect(sandbox.requestLog.filter((r) => r.method === 'PATCH').map((r) => r.status)).toEqual([500, 200]);

      sandbox.setFaults({ errorRate: 1 });
      const error = await adapter({ maxAttempts: 2 }).updateAppointmentTimes(created.external_id, { starts_at: startsAt, ends_at: endsAt })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmsUnavailableError);
    });
  });
});
