// A done visit's note written after Done (issue 34: Done is one tap on the phone, the note may follow): the practitioner
// writes it on their own done visit, a coordinator on any; it replaces the note, an empty one removes it, and each
// change is in the change log as "note: …". Not before Done, not on a cancelled visit, not on another's or another
// business's visit.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appointments } from '../../server/src/db/schema';
import { visitSteps } from '../../server/src/db/schema-visits';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';
import { brisbaneAt } from './support/routing';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;
let keys = 0;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
}, 120_000);
afterAll(() => t.close());

type Step = 'on_my_way' | 'arrived' | 'done';

/**
 * A visit of 24 November 2026 at 09:00 whose steps were recorded as the phone records them (rows, not requests: the
 * steps' own rules and clock are visit-steps.test.ts's), up to `reached`; `note` sent with Done.
 */
async function visitWith(reached: Step[], options: { business?: BusinessFixture; practitionerId?: number; note?: string } = {}): Promise<number> {
  const business = options.business ?? acme;
  const starts = brisbaneAt('2026-11-24', '09:00');
  const [row] = await t.ctx.db.insert(appointments).values({
    business_account_id: business.businessAccountId, client_id: business.clientIds[0], practitioner_id: options.practitionerId ?? business.practitionerIds[0],
    appointment_type_id: business.appointmentTypeIds[0], starts_at: starts, ends_at: new Date(starts.getTime() + 45 * 60_000), arrive_at: starts,
    visit_state: reached.at(-1) ?? 'not_started',
  }).returning({ id: appointments.id });
  for (const [index, step] of reached.entries()) {
    await t.ctx.db.insert(visitSteps).values({
      business_account_id: business.businessAccountId, appointment_id: row.id, step, at: new Date(starts.getTime() + index * 10 * 60_000),
      note: step === 'done' ? options.note ?? null : null, idempotency_key: `note-test-${process.pid}-${(keys += 1)}`,
      recorded_by_name: 'Pat',
    });
  }
  return row.id;
}

const writeNote = (id: number, note: string, token = acme.tokens.practitioner) =>
  t.request('PUT', `/api/appointments/${id}/visit_note`, { token, body: { note } });

interface LoggedVersion { whodunnit: string; reason: string | null; changes: { label: string; kind: string }[] }
async function noteEntries(id: number): Promise<{ who: string; what: string[]; reason: string | null }[]> {
  const details = await t.request('GET', `/api/appointments/${id}/extra_details`, { token: acme.tokens.staff });
  expect(details.status).toBe(200);
  return (details.body.versions as LoggedVersion[]).map((version) => ({ who: version.whodunnit, what: version.changes.map((change) => change.label), reason: version.reason }));
}

describe('PUT /api/appointments/{id}/visit_note', () => {
  /** The visit's note as the day's list (the run sheet's, kept in the list cache) shows it. */
  async function listedNote(id: number): Promise<string | null | undefined> {
    const list = await t.request('GET', '/api/appointments?start_date=2026-11-24&end_date=2026-11-24', { token: acme.tokens.practitioner });
    expect(list.status).toBe(200);
    return (list.body.appointments as { id: number; visit: { note: string | null } | null }[]).find((item) => item.id === id)?.visit?.note;
  }

  it('adds the note to the practitioner’s own done visit, then changes and removes it, each in the change log as "note: …"', async () => {
    const id = await visitWith(['on_my_way', 'arrived', 'done']);
    expect(await listedNote(id)).toBeNull();
    const added = await writeNote(id, '  Meds given, all well.  ');
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.appointment).toMatchObject({ id, visit_state: 'done', visit: { note: 'Meds given, all well.' } });
    expect((await t.request('GET', `/api/appointments/${id}`, { token: acme.tokens.staff })).body.appointment.visit.note).toBe('Meds given, all well.');
    expect(await listedNote(id)).toBe('Meds given, all well.');

    // The same note again changes nothing and logs nothing.
    expect((await writeNote(id, 'Meds given, all well.')).status).toBe(200);
    const changed = await writeNote(id, 'Meds given; the daughter will call.', acme.tokens.staff);
    expect(changed.status).toBe(200);
    expect(changed.body.appointment.visit.note).toBe('Meds given; the daughter will call.');
    const removed = await writeNote(id, '   ');
    expect(removed.status).toBe(200);
    expect(removed.body.appointment.visit.note).toBeNull();
    expect(await listedNote(id)).toBeNull();

    expect(await noteEntries(id)).toEqual([
      { who: 'Pat', what: ['Note added after Done'], reason: 'note: Meds given, all well.' },
      { who: 'Sid', what: ['Note changed'], reason: 'note: Meds given; the daughter will call.' },
      { who: 'Pat', what: ['Note removed'], reason: 'note removed' },
    ]);
  });

  it('replaces a note sent with Done', async () => {
    const id = await visitWith(['arrived', 'done'], { note: 'Dressing changed' });
    const response = await writeNote(id, 'Dressing changed, wound healing well');
    expect(response.status).toBe(200);
    expect(response.body.appointment.visit.note).toBe('Dressing changed, wound healing well');
    expect(await noteEntries(id)).toEqual([{ who: 'Pat', what: ['Note changed'], reason: 'note: Dressing changed, wound healing well' }]);
  });

  it('refuses a visit that is not done, or cancelled, with 409 in words', async () => {
    for (const reached of [[], ['on_my_way'], ['on_my_way', 'arrived']] as Step[][]) {
      const response = await writeNote(await visitWith(reached), 'Too soon');
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'VISIT_NOT_DONE', message: 'This visit is not done yet: a note is added once it is Done.' });
    }
    const cancelled = await visitWith(['arrived', 'done']);
    await t.ctx.db.update(appointments).set({ cancelled_at: new Date() }).where(eq(appointments.id, cancelled));
    const response = await writeNote(cancelled, 'Too late');
    expect(response.status).toBe(409);
    expect(response.body.message).toBe('This visit is cancelled: it takes no note.');
  });

  it('answers 404 for a colleague’s visit to a practitioner and for another business’s visit, and 422 for a note too long', async () => {
    const colleagues = await visitWith(['arrived', 'done'], { practitionerId: acme.practitionerIds[1] });
    expect((await writeNote(colleagues, 'Not mine')).status).toBe(404);
    expect((await writeNote(colleagues, 'From the office', acme.tokens.admin)).status).toBe(200);
    const elsewhere = await visitWith(['arrived', 'done'], { business: other });
    expect((await writeNote(elsewhere, 'Not ours', acme.tokens.admin)).status).toBe(404);
    expect((await writeNote(elsewhere, 'Not ours', other.tokens.practitioner)).status).toBe(200);
    expect((await writeNote(colleagues, 'x'.repeat(2001))).status).toBe(422);
    expect((await t.request('PUT', `/api/appointments/${colleagues}/visit_note`, { body: { note: 'Nobody' } })).status).toBe(401);
  });
});
