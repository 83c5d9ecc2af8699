import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type SandboxHandle } from './server';

let sandbox: SandboxHandle;
let auth: string;

/** A response's JSON body, untyped (Node's fetch types it `unknown`). */
const json = (response: Response): Promise<any> => response.json();

async function api(path: string, init: RequestInit = {}) {
  const response = await fetch(`${sandbox.url}${path}`, {
    ...init,
    headers: { Authorization: auth, Accept: 'application/json', 'Content-Type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  sandbox = await startSandbox({ seed: 3, patients: 60, practitioners: 5, weeks: 1, startDate: '2026-11-16' });
  auth = `Basic ${Buffer.from(`${sandbox.apiKey}:`).toString('base64')}`;
});

afterAll(async () => {
  await sandbox.close();
});

describe('sandbox HTTP API', () => {
  it('requires a known key', async () => {
    const response = await fetch(`${sandbox.url}/businesses`);
    expect(response.status).toBe(401);
    expect((await json(response)).message).toMatch(/Unauthorized/);
    const wrong = await fetch(`${sandbox.url}/businesses`, { headers: { Authorization: `Basic ${Buffer.from('nope:').toString('base64')}` } });
    expect(wrong.status).toBe(401);
  });

  it('has a demo key shaped like a Cliniko key with a shard suffix', () => {
    expect(sandbox.apiKey).toMatch(/^[A-Za-z0-9]+-au1$/);
  });

  it('paginates with per_page, page, links and total_entries, keeping the filters in the links', async () => {
    const first = await api('/patients?per_page=25&q[]=archived_at:*');
    expect(first.body.patients).toHaveLength(25);
    expect(first.body.total_entries).toBe(60);
    expect(first.body.links.previous).toBeUndefined();
    const next = new URL(first.body.links.next);
    expect(next.searchParams.get('page')).toBe('2');
    expect(next.searchParams.getAll('q[]')).toEqual(['archived_at:*']);
    const last = await api('/patients?per_page=25&page=3&q[]=archived_at:*');
    expect(last.body.patients).toHaveLength(10);
    expect(last.body.links.next).toBeUndefined();
    expect(last.body.links.previous).toContain('page=2');
    expect((await api('/patients?per_page=500')).body.patients.length).toBeLessThanOrEqual(100);
  });

  it("serves each practitioner's appointment types (their profession's qualifications), paged, at the link the practitioner names", async () => {
    const { body } = await api('/practitioners');
    const nurse = body.practitioners.find((p: any) => p.designation === 'Registered Nurse');
    const physio = body.practitioners.find((p: any) => p.designation === 'Physiotherapist');
    const listed = await api(new URL(nurse.appointment_types.links.self).pathname.replace('/v1', ''));
    expect(listed.status).toBe(200);
    expect(listed.body.appointment_types.map((type: any) => type.name).sort()).toEqual(['Medication check', 'Nursing visit', 'Wound care']);
    expect(listed.body.total_entries).toBe(3);
    const paged = await api(`/practitioners/${nurse.id}/appointment_types?per_page=2&page=2`);
    expect(paged.body.appointment_types).toHaveLength(1);
    expect(paged.body.links.previous).toContain('page=1');
    expect((await api(`/practitioners/${physio.id}/appointment_types`)).body.appointment_types.map((type: any) => type.name)).toEqual(['Physiotherapy']);
    // Every type a practitioner is booked for is among theirs.
    for (const appointment of sandbox.dataset.appointments) {
      const practitioner = sandbox.dataset.practitioners.find((p) => p.id === appointment.practitioner_id)!;
      expect(practitioner.appointment_type_ids).toContain(appointment.appointment_type_id);
    }
    expect((await api('/practitioners/123/appointment_types')).status).toBe(404);
  });

  it('serves Cliniko-shaped records with string ids and link objects', async () => {
    const { body } = await api('/individual_appointments?per_page=1');
    const appointment = body.individual_appointments[0];
    expect(typeof appointment.id).toBe('string');
    expect(appointment.links.self).toBe(`${sandbox.url}/individual_appointments/${appointment.id}`);
    expect(appointment.patient.links.self).toMatch(new RegExp(`^${sandbox.url}/patients/\\d{19}$`));
    expect(appointment.practitioner.links.self).toMatch(/\/practitioners\/\d{19}$/);
    expect(appointment.appointment_type.links.self).toMatch(/\/appointment_types\/\d{19}$/);
    expect(appointment.business.links.self).toMatch(/\/businesses\/\d{19}$/);
    expect(appointment.starts_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const patient = (await api(`/patients/${appointment.patient.links.self.split('/').pop()}`)).body;
    expect(patient).toMatchObject({ state: 'QLD', country_code: 'AU', latitude: expect.any(Number), longitude: expect.any(Number) });
  });

  it('evaluates q[] filters and rejects unknown fields or operators', async () => {
    const practitioner = sandbox.dataset.practitioners[0];
    const { body } = await api(`/individual_appointments?per_page=100&q[]=practitioner_id:=${practitioner.id}&q[]=starts_at:>=2026-11-17T00:00:00Z`);
    const expected = sandbox.dataset.appointments.filter(
      (a) => a.practitioner_id === practitioner.id && a.starts_at >= '2026-11-17T00:00:00Z' && !a.cancelled_at && !a.archived_at && !a.deleted_at,
    );
    expect(body.individual_appointments.map((a: { id: string }) => a.id).sort()).toEqual(expected.map((a) => a.id).sort());
    expect((await api('/patients?q[]=last_name:~son')).body.patients.every((p: { last_name: string }) => /son/i.test(p.last_name))).toBe(true);
    expect((await api('/patients?q[]=shoe_size:=9')).status).toBe(400);
    expect((await api('/individual_appointments?q[]=starts_at:~2026')).status).toBe(400);
    expect((await api('/individual_appointments?q[]=starts_at:>yesterday')).status).toBe(400);
  });

  it('lists active practitioners and inactive ones separately', async () => {
    const active = (await api('/practitioners')).body.practitioners;
    const inactive = (await api('/practitioners/inactive')).body.practitioners;
    expect(active.every((p: { active: boolean }) => p.active)).toBe(true);
    expect(inactive.every((p: { active: boolean }) => !p.active)).toBe(true);
    expect(active.length + inactive.length).toBe(5);
  });

  it('answers 404 for unknown ids and paths', async () => {
    expect((await api('/patients/1234567890123456789')).status).toBe(404);
    expect((await api('/patients/abc')).status).toBe(404);
    expect((await api('/invoices')).status).toBe(404);
  });

  it('cancels and archives appointments, which then leave the default list', async () => {
    const [toCancel, toArchive] = sandbox.dataset.appointments.filter((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at);
    const invalid = await api(`/individual_appointments/${toCancel.id}/cancel`, { method: 'PATCH', body: JSON.stringify({}) });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.cancellation_reason).toBeDefined();

    const cancel = await api(`/individual_appointments/${toCancel.id}/cancel`, {
      method: 'PATCH',
      body: JSON.stringify({ cancellation_reason: 30, cancellation_note: 'Unwell' }),
    });
    expect(cancel.status).toBe(204);
    const cancelled = (await api(`/individual_appointments/${toCancel.id}`)).body;
    expect(cancelled).toMatchObject({ cancellation_reason: 30, cancellation_reason_description: 'Sick', cancellation_note: 'Unwell' });
    expect(cancelled.cancelled_at).toBe(cancelled.updated_at);

    expect((await api(`/individual_appointments/${toArchive.id}/archive`, { method: 'POST' })).status).toBe(204);
    expect((await api(`/individual_appointments/${toArchive.id}`)).status).toBe(404);
    expect((await api(`/individual_appointments/${toArchive.id}?q[]=archived_at:*`)).body.archived_at).not.toBeNull();

    const visibleIds = (await api('/individual_appointments?per_page=100')).body.individual_appointments.map((a: { id: string }) => a.id);
    expect(visibleIds).not.toContain(toCancel.id);
    expect(visibleIds).not.toContain(toArchive.id);
    const everything = (await api('/individual_appointments?per_page=100&q[]=cancelled_at:*&q[]=archived_at:*&q[]=deleted_at:*')).body;
    expect(everything.total_entries).toBe(sandbox.dataset.appointments.length);
  });

  it('validates PATCH bodies with Cliniko-style 422s and keeps the length when only the start moves', async () => {
    const target = sandbox.dataset.appointments.find((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at)!;
    const length = Date.parse(target.ends_at) - Date.parse(target.starts_at);
    const bad = await api(`/individual_appointments/${target.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ starts_at: 'soon', practitioner_id: '1', patient_id: '2' }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: 'Validation Failed',
      errors: { starts_at: 'is not a valid date-time', practitioner_id: 'does not exist', patient_id: 'cannot be changed through the sandbox' },
    });
    const moved = await api(`/individual_appointments/${target.id}`, { method: 'PATCH', body: JSON.stringify({ starts_at: '2026-11-20T00:00:00Z' }) });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.body.ends_at) - Date.parse(moved.body.starts_at)).toBe(length);
    const reset = await api(`/individual_appointments/${target.id}`, { method: 'PATCH', body: JSON.stringify({ ends_at: null }) });
    const type = sandbox.dataset.appointmentTypes.find((t) => t.id === target.appointment_type_id)!;
    expect(Date.parse(reset.body.ends_at) - Date.parse(reset.body.starts_at)).toBe(type.duration_in_minutes * 60_000);
    expect((await api(`/individual_appointments/${target.id}`, { method: 'PATCH', body: 'not json' })).status).toBe(400);
  });

  it('sets fault knobs through the admin endpoint, validating each field', async () => {
    const bad = await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ errorRate: 3, bogus: 1 }) });
    expect(bad.status).toBe(422);
    expect((await json(bad)).errors).toEqual({ errorRate: 'must be a number from 0 to 1', bogus: 'is not a fault knob' });

    const set = await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ rateLimitPerMinute: 2 }) });
    expect((await json(set)).rateLimitPerMinute).toBe(2);
    const statuses = [];
    let reset: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await api('/user');
      statuses.push(response.status);
      reset = response.headers.get('x-ratelimit-reset') ?? reset;
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(reset) * 1000).toBeGreaterThan(Date.now() + 50_000);
    // Switching the limit off lets requests straight through again.
    sandbox.setFaults({ rateLimitPerMinute: null });
    expect((await api('/user')).status).toBe(200);
    expect((await json(await fetch(`${sandbox.origin}/__sandbox/faults`))).rateLimitPerMinute).toBeNull();
  });

  it('answers exactly the next N requests 429 when asked, however slowly they come', async () => {
    sandbox.setFaults({ rateLimitNext: 2, rateLimitWindowMs: 5_000 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api('/user')).status);
    expect(statuses).toEqual([429, 429, 200]);
    expect(sandbox.faults().rateLimitNext).toBe(0);
  });

  it('counts the rate limit per API key', async () => {
    const other = await startSandbox({
      seed: 3,
      patients: 5,
      practitioners: 1,
      weeks: 1,
      startDate: '2026-11-16',
      apiKeys: ['first-key-au1', 'second-key-au1'],
      faults: { rateLimitPerMinute: 1 },
    });
    try {
      const call = (key: string) =>
        fetch(`${other.url}/user`, { headers: { Authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` } }).then((r) => r.status);
      expect(await call('first-key-au1')).toBe(200);
      expect(await call('first-key-au1')).toBe(429);
      expect(await call('second-key-au1')).toBe(200);
      expect(await call('demo-key-not-accepted')).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('corrupts records at the malformed rate and drops connections on demand', async () => {
    sandbox.setFaults({ malformedRate: 1 });
    const { body } = await api('/appointment_types');
    sandbox.setFaults({ malformedRate: 0 });
    const broken = body.appointment_types.filter(
      (t: { id: unknown; updated_at: unknown }) => typeof t.id !== 'string' || t.updated_at === 'not-a-timestamp' || t.updated_at === null,
    );
    expect(broken).toHaveLength(body.appointment_types.length);

    sandbox.setFaults({ dropNext: 1 });
    await expect(fetch(`${sandbox.url}/user`, { headers: { Authorization: auth } })).rejects.toThrow();
    expect((await api('/user')).status).toBe(200);
  });
});
