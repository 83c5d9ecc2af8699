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

/** An active practitioner, a type they deliver, a bookable patient and a business: the four ids a create needs. */
function bookable(index = 0) {
  const practitioner = sandbox.dataset.practitioners.filter((p) => p.active)[index];
  const type = sandbox.dataset.appointmentTypes.find((t) => practitioner.appointment_type_ids.includes(t.id))!;
  const patient = sandbox.dataset.patients.filter((p) => !p.archived_at && !p.deleted_at)[index];
  return { practitioner, type, patient, business: sandbox.dataset.businesses[0] };
}

/** A create body on the Saturday after the seeded week (no practitioner works then), `hour` UTC. */
function createBody(hour: number, index = 0): Record<string, unknown> {
  const { practitioner, type, patient, business } = bookable(index);
  const startsAt = `2026-11-21T${String(hour).padStart(2, '0')}:00:00Z`;
  return {
    practitioner_id: practitioner.id,
    appointment_type_id: type.id,
    patient_id: patient.id,
    business_id: business.id,
    starts_at: startsAt,
    ends_at: new Date(Date.parse(startsAt) + 30 * 60_000).toISOString().replace('.000Z', 'Z'),
    notes: `ref:${hour}-${index}`,
  };
}

const post = (body: Record<string, unknown>, init: RequestInit = {}) =>
  api('/individual_appointments', { method: 'POST', body: JSON.stringify(body), ...init });

const withNotes = (notes: string) => sandbox.dataset.appointments.filter((a) => a.notes === notes);

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

  it('creates an appointment (POST) answered 201 as GET serves it, new, listed at once and seen by updated_at:>', async () => {
    const seededLatest = sandbox.dataset.appointments.reduce((latest, a) => (a.updated_at > latest ? a.updated_at : latest), '');
    const body = createBody(0);
    const created = await post(body);
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^\d{19}$/);
    expect(created.body).toMatchObject({
      starts_at: body.starts_at,
      ends_at: body.ends_at,
      notes: 'ref:0-0',
      cancelled_at: null,
      archived_at: null,
      deleted_at: null,
      practitioner: { links: { self: `${sandbox.url}/practitioners/${body.practitioner_id}` } },
      patient: { links: { self: `${sandbox.url}/patients/${body.patient_id}` } },
      appointment_type: { links: { self: `${sandbox.url}/appointment_types/${body.appointment_type_id}` } },
      business: { links: { self: `${sandbox.url}/businesses/${body.business_id}` } },
    });
    expect(created.body.patient_name).toBe(`${bookable().patient.first_name} ${bookable().patient.last_name}`);
    expect(created.body.created_at).toBe(created.body.updated_at);
    expect(created.body.created_at > seededLatest).toBe(true);
    expect((await api(`/individual_appointments/${created.body.id}`)).body).toEqual(created.body);

    const since = new Date(Date.parse(created.body.updated_at) - 1000).toISOString().replace('.000Z', 'Z');
    const listed = await api(
      `/individual_appointments?per_page=100&q[]=practitioner_id:=${body.practitioner_id}&q[]=starts_at:>=2026-11-21T00:00:00Z&q[]=updated_at:>${since}`,
    );
    expect(listed.body.individual_appointments.map((a: { id: string }) => a.id)).toEqual([created.body.id]);
    // In created_at order it is the last of all.
    const all = await api('/individual_appointments?per_page=100&q[]=cancelled_at:*&q[]=archived_at:*&q[]=deleted_at:*');
    const lastPage = Math.ceil(all.body.total_entries / 100);
    const last = (await api(`/individual_appointments?per_page=100&page=${lastPage}&q[]=cancelled_at:*&q[]=archived_at:*&q[]=deleted_at:*`)).body;
    expect(last.individual_appointments.at(-1).id).toBe(created.body.id);
  });

  it("gives a create without ends_at (absent or null) the type's duration", async () => {
    const { type } = bookable(1);
    for (const [hour, ends] of [[1, undefined], [2, null]] as const) {
      const body = { ...createBody(hour, 1), ends_at: ends };
      if (ends === undefined) delete body.ends_at;
      const created = await post(body);
      expect(created.status).toBe(201);
      expect(Date.parse(created.body.ends_at) - Date.parse(created.body.starts_at)).toBe(type.duration_in_minutes * 60_000);
    }
  });

  it('refuses a create with Cliniko-style 422s naming each field, and creates nothing', async () => {
    const before = sandbox.dataset.appointments.length;
    const blank = await post({});
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({
      message: 'Validation Failed',
      errors: {
        practitioner_id: "can't be blank", appointment_type_id: "can't be blank", patient_id: "can't be blank", business_id: "can't be blank",
        starts_at: "can't be blank",
      },
    });
    const unknown = await post({
      ...createBody(3), practitioner_id: '1000000000000000001', appointment_type_id: '1000000000000000002', patient_id: '1000000000000000003',
      business_id: '1000000000000000004', starts_at: 'Saturday', notes: 7, repeat_rule: { repeat_type: 'Weekly' },
    });
    expect(unknown.body.errors).toEqual({
      practitioner_id: 'does not exist', appointment_type_id: 'does not exist', patient_id: 'does not exist', business_id: 'does not exist',
      starts_at: 'is not a valid date-time', notes: 'must be a string', repeat_rule: 'is not supported by the sandbox',
    });
    const inactive = sandbox.dataset.practitioners.find((p) => !p.active)!;
    const archivedPatient = sandbox.dataset.patients.find((p) => p.archived_at)!;
    const refused = await post({ ...createBody(3), practitioner_id: inactive.id, patient_id: archivedPatient.id, ends_at: '2026-11-21T02:00:00Z' });
    expect(refused.body.errors).toEqual({ practitioner_id: 'is not active', patient_id: 'is archived', ends_at: 'must be after starts at' });
    expect((await post({ ...createBody(3), ends_at: 'later' })).body.errors).toEqual({ ends_at: 'is not a valid date-time' });
    expect(sandbox.dataset.appointments.length).toBe(before);
  });

  it("says whether an appointment overlaps another booked one of the practitioner's (GET …/conflicts)", async () => {
    const seeded = sandbox.dataset.appointments.find((a) => !a.cancelled_at && !a.archived_at && !a.deleted_at)!;
    const overlapping = await post({
      ...createBody(4), practitioner_id: seeded.practitioner_id, starts_at: seeded.starts_at, ends_at: seeded.ends_at,
      appointment_type_id: seeded.appointment_type_id,
    });
    expect(overlapping.status).toBe(201);
    const conflicts = (id: string) => api(`/individual_appointments/${id}/conflicts`);
    expect((await conflicts(overlapping.body.id)).body).toEqual({ conflicts: { exist: true } });
    expect((await conflicts(seeded.id)).body).toEqual({ conflicts: { exist: true } });
    // Another practitioner's appointment at the same time is no conflict; an appointment just touching it neither.
    const free = await post(createBody(5));
    expect((await conflicts(free.body.id)).body.conflicts.exist).toBe(false);
    const touching = await post({ ...createBody(5), starts_at: free.body.ends_at, ends_at: '2026-11-21T06:00:00Z' });
    expect((await conflicts(touching.body.id)).body.conflicts.exist).toBe(false);
    // Cancelling one of the pair clears the other's conflict.
    await api(`/individual_appointments/${overlapping.body.id}/cancel`, { method: 'PATCH', body: JSON.stringify({ cancellation_reason: 50 }) });
    expect((await conflicts(seeded.id)).body.conflicts.exist).toBe(false);
    expect((await conflicts('1000000000000000001')).status).toBe(404);
  });

  it('cancels only with one of the reason codes 10..60 and a string note, once', async () => {
    const created = (await post(createBody(7))).body;
    const cancel = (body: unknown) => api(`/individual_appointments/${created.id}/cancel`, { method: 'PATCH', body: JSON.stringify(body) });
    for (const reason of [15, '60', 70, null]) {
      const refused = await cancel({ cancellation_reason: reason });
      expect(refused.status).toBe(422);
      expect(refused.body.errors.cancellation_reason).toBe('must be one of 10, 20, 30, 40, 50, 60');
    }
    expect((await cancel({ cancellation_reason: 60, cancellation_note: 5 })).body.errors).toEqual({ cancellation_note: 'must be a string' });
    expect((await api(`/individual_appointments/${created.id}`)).body.cancelled_at).toBeNull();
    const done = await cancel({ cancellation_reason: 60, cancellation_note: 'Rostered at work' });
    expect(done).toMatchObject({ status: 204, body: null });
    const cancelled = (await api(`/individual_appointments/${created.id}`)).body;
    expect(cancelled).toMatchObject({ cancellation_reason: 60, cancellation_reason_description: 'Work', cancellation_note: 'Rostered at work' });
    expect(cancelled.cancelled_at).not.toBeNull();
    expect(cancelled.updated_at > created.updated_at).toBe(true);
    expect((await cancel({ cancellation_reason: 60 })).body.errors).toEqual({ base: 'Appointment is already cancelled' });
  });

  it('moves an appointment to another active practitioner (PATCH practitioner_id) and refuses an inactive one', async () => {
    const created = (await post(createBody(8))).body;
    const other = bookable(1).practitioner;
    const inactive = sandbox.dataset.practitioners.find((p) => !p.active)!;
    const patch = (body: unknown) => api(`/individual_appointments/${created.id}`, { method: 'PATCH', body: JSON.stringify(body) });
    expect((await patch({ practitioner_id: inactive.id })).body.errors).toEqual({ practitioner_id: 'is not active' });
    const moved = await patch({ practitioner_id: other.id, starts_at: '2026-11-21T09:00:00Z' });
    expect(moved.status).toBe(200);
    expect(moved.body.practitioner.links.self).toBe(`${sandbox.url}/practitioners/${other.id}`);
    expect(moved.body.ends_at).toBe('2026-11-21T09:30:00Z');
  });

  it('answers the next N committed writes 500 (commitThenFailNext); a refused write does not count', async () => {
    sandbox.setFaults({ commitThenFailNext: 1 });
    expect((await post({})).status).toBe(422);
    expect(sandbox.faults().commitThenFailNext).toBe(1);
    const failed = await post(createBody(10));
    expect(failed.status).toBe(500);
    expect(withNotes('ref:10-0')).toHaveLength(1);
    expect(sandbox.faults().commitThenFailNext).toBe(0);
    // Reads are not writes.
    sandbox.setFaults({ commitThenFailNext: 1 });
    expect((await api('/user')).status).toBe(200);
    const patched = await api(`/individual_appointments/${withNotes('ref:10-0')[0].id}`, { method: 'PATCH', body: JSON.stringify({ notes: 'changed' }) });
    expect(patched.status).toBe(500);
    expect(withNotes('changed')).toHaveLength(1);
    expect((await post(createBody(11))).status).toBe(201);
  });

  it('drops the connection of the next N committed writes (commitThenDropNext)', async () => {
    sandbox.setFaults({ commitThenDropNext: 1 });
    await expect(post(createBody(12))).rejects.toThrow();
    expect(withNotes('ref:12-0')).toHaveLength(1);
    expect(sandbox.requestLog.at(-1)).toMatchObject({ method: 'POST', status: 'dropped' });
    expect(sandbox.faults().commitThenDropNext).toBe(0);
    const created = withNotes('ref:12-0')[0];
    sandbox.setFaults({ commitThenDropNext: 1 });
    await expect(
      api(`/individual_appointments/${created.id}/cancel`, { method: 'PATCH', body: JSON.stringify({ cancellation_reason: 40 }) }),
    ).rejects.toThrow();
    expect(created.cancellation_reason).toBe(40);
  });

  it('delays the answers of committed writes (commitThenDelayMs), so a client that gives up early finds it saved', async () => {
    sandbox.setFaults({ commitThenDelayMs: 300 });
    await expect(post(createBody(13), { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(withNotes('ref:13-0')).toHaveLength(1);
    const began = Date.now();
    expect((await post(createBody(14))).status).toBe(201);
    expect(Date.now() - began).toBeGreaterThanOrEqual(290);
    // Reads are not delayed.
    const read = Date.now();
    await api('/user');
    expect(Date.now() - read).toBeLessThan(250);
    sandbox.setFaults({ commitThenDelayMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 250)); // let the abandoned answer finish
  });

  it('answers writes 429 (rateLimitNext), 503 (errorNext) or drops them (dropNext) without committing', async () => {
    const before = sandbox.dataset.appointments.length;
    sandbox.setFaults({ rateLimitNext: 1, rateLimitWindowMs: 1000 });
    const limited = await post(createBody(15));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    sandbox.setFaults({ errorNext: 1 });
    expect((await post(createBody(15))).status).toBe(503);
    sandbox.setFaults({ dropNext: 1 });
    await expect(post(createBody(15))).rejects.toThrow();
    expect(sandbox.dataset.appointments.length).toBe(before);
    expect((await post(createBody(15))).status).toBe(201);
  });

  it('sets the commit-then knobs through the admin endpoint, validating them', async () => {
    const bad = await fetch(`${sandbox.origin}/__sandbox/faults`, {
      method: 'POST', body: JSON.stringify({ commitThenFailNext: -1, commitThenDropNext: 1.5, commitThenDelayMs: 'slow' }),
    });
    expect((await json(bad)).errors).toEqual({
      commitThenFailNext: 'must be a non-negative integer', commitThenDropNext: 'must be a non-negative integer', commitThenDelayMs: 'must be a non-negative integer',
    });
    const set = await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'POST', body: JSON.stringify({ commitThenFailNext: 2, commitThenDropNext: 1, commitThenDelayMs: 5 }) });
    expect(await json(set)).toMatchObject({ commitThenFailNext: 2, commitThenDropNext: 1, commitThenDelayMs: 5 });
    sandbox.setFaults({ commitThenFailNext: 0, commitThenDropNext: 0, commitThenDelayMs: 0 });
  });
});
