// Practitioners' colours: derived and distinct by default, set or cleared by an ADMIN, the same in every place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { practitioners } from '../../server/src/db/schema';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t.close());

type Shown = { id: number; color: string; color_chosen?: boolean };
const HEX = /^#[0-9a-f]{6}$/;

async function colours(token: string): Promise<Map<number, Shown>> {
  const response = await t.request('GET', '/api/practitioners/all', { token });
  expect(response.status).toBe(200);
  return new Map((response.body.practitioners as Shown[]).map((p) => [p.id, p]));
}

/** The appointments list's practitioner lookups and one appointment's practitioner, by id. */
async function appointmentColours(token: string): Promise<Map<number, string>> {
  const list = await t.request('GET', '/api/appointments?start_date=2026-11-24&end_date=2026-11-24', { token });
  expect(list.status).toBe(200);
  const found = new Map((list.body.practitioners as Shown[]).map((p) => [p.id, p.color]));
  const one = await t.request('GET', `/api/appointments/${acme.appointmentIds[0]}`, { token });
  expect(one.status).toBe(200);
  expect(found.get(one.body.appointment.practitioner.id)).toBe(one.body.appointment.practitioner.color);
  return found;
}

/** CIE L*a*b* of an sRGB '#rrggbb' (D65), to measure how different two colours look. */
const labOf = (hex: string): [number, number, number] => {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16) / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const f = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
};
/** CIE76 colour difference: about 2.3 is just noticeable; above 25 two pins are not mistaken for each other. */
const deltaE = (a: string, b: string) => Math.hypot(...labOf(a).map((value, index) => value - labOf(b)[index]));

describe('practitioners’ colours', () => {
  it('are derived, distinct and always filled in the practitioners list and the appointments', async () => {
    const shown = await colours(acme.tokens.admin);
    const all = acme.practitionerIds.map((id) => shown.get(id)!);
    for (const p of all) {
      expect(p.color).toMatch(HEX);
      expect(p.color_chosen).toBe(false);
    }
    expect(new Set(all.map((p) => p.color)).size).toBe(all.length);
    const lanes = await appointmentColours(acme.tokens.staff);
    for (const [id, color] of lanes) expect(color).toBe(shown.get(id)!.color);
  });

  it('give fifteen practitioners fifteen colours nobody mistakes for each other, and more still all different', async () => {
    const db = t.ctx.db;
    const many = await createBusinessFixture(t, 'many');
    await db.insert(practitioners).values(Array.from({ length: 17 }, (_, index) => ({
      business_account_id: many.businessAccountId, first_name: `P${index}`, last_name: 'Many',
    })));
    const byId = await colours(many.tokens.admin);
    const ranked = [...byId.entries()].sort(([a], [b]) => a - b).map(([, p]) => p.color);
    expect(ranked).toHaveLength(20);
    expect(new Set(ranked).size).toBe(20);
    const first = ranked.slice(0, 15);
    const closest = Math.min(...first.flatMap((a, i) => first.slice(i + 1).map((b) => deltaE(a, b))));
    expect(closest).toBeGreaterThanOrEqual(25);
  });

  it('lets an ADMIN choose a colour and go back to the automatic one, seen everywhere', async () => {
    const id = acme.practitionerIds[1];
    const automatic = (await colours(acme.tokens.admin)).get(id)!.color;
    const set = await t.request('PATCH', `/api/practitioners/${id}`, { token: acme.tokens.admin, body: { color: '#AA3377' } });
    expect(set.status).toBe(200);
    expect(set.body.practitioner).toMatchObject({ id, color: '#aa3377', color_chosen: true });
    expect((await colours(acme.tokens.staff)).get(id)!.color).toBe('#aa3377');
    expect((await appointmentColours(acme.tokens.admin)).get(id)).toBe('#aa3377');

    const cleared = await t.request('PATCH', `/api/practitioners/${id}`, { token: acme.tokens.admin, body: { color: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.practitioner).toMatchObject({ id, color: automatic, color_chosen: false });
    expect((await appointmentColours(acme.tokens.admin)).get(id)).toBe(automatic);
  });

  it('lets a coordinator read the working data (skills) that moving a visit needs, and a practitioner not', async () => {
    const staff = await t.request('GET', '/api/practitioners', { token: acme.tokens.staff });
    expect(staff.status).toBe(200);
    expect(staff.body.practitioners.map((p: { id: number }) => p.id).sort()).toEqual([...acme.practitionerIds].sort());
    expect(staff.body.practitioners[0]).toHaveProperty('skill_appointment_type_ids');
    expect((await t.request('GET', '/api/practitioners', { token: acme.tokens.practitioner })).status).toBe(403);
  });

  // The other roles' 403 is asserted, for every operation, by permissions.test.ts.
  it('answers 404 for another business’s practitioner, changing nothing, and refuses a bad colour with 422', async () => {
    const id = acme.practitionerIds[0];
    const foreign = await t.request('PATCH', `/api/practitioners/${other.practitionerIds[0]}`, { token: acme.tokens.admin, body: { color: '#112233' } });
    expect(foreign.status).toBe(404);
    expect((await colours(other.tokens.admin)).get(other.practitionerIds[0])!.color_chosen).toBe(false);
    for (const body of [{ color: 'blue' }, { color: '#12345' }, { color: '#1234567' }, { color: 12 }, {}, { color: '#112233', name: 'x' }]) {
      const response = await t.request('PATCH', `/api/practitioners/${id}`, { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
    }
    expect((await t.request('PATCH', '/api/practitioners/999999', { token: acme.tokens.admin, body: { color: null } })).status).toBe(404);
  });
});
