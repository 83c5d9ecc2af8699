import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
});
afterAll(() => t.close());

describe('PUT /api/appointment_types/{id}', () => {
  it('lets an ADMIN change name, duration and colour; every role sees the change', async () => {
    const id = acme.appointmentTypeIds[1];
    const response = await t.request('PUT', `/api/appointment_types/${id}`, {
      token: acme.tokens.admin, body: { name: ' Physio (home) ', duration: 50, color: '#16A34A' },
    });
    expect(response.status).toBe(200);
    expect(response.body.appointment_type).toEqual({ id, name: 'Physio (home)', duration: 50, color: '#16a34a', tolerance_minutes: null, same_type_gap_minutes: null, needs_two_practitioners: false, move_price: null });
    const partial = await t.request('PUT', `/api/appointment_types/${id}`, { token: acme.tokens.admin, body: { duration: 30 } });
    expect(partial.body.appointment_type).toEqual({ id, name: 'Physio (home)', duration: 30, color: '#16a34a', tolerance_minutes: null, same_type_gap_minutes: null, needs_two_practitioners: false, move_price: null });
    for (const role of ['staff', 'practitioner'] as const) {
      const all = await t.request('GET', '/api/appointment_types/all', { token: acme.tokens[role] });
      expect(all.body.appointment_types).toContainEqual({ id, name: 'Physio (home)', duration: 30, color: '#16a34a', tolerance_minutes: null, same_type_gap_minutes: null, needs_two_practitioners: false, move_price: null });
    }
  });

  // The other roles' 403 and another business's 404 are asserted, for every operation, by permissions.test.ts.
  it('refuses bad input with 422, naming what is wrong', async () => {
    const id = acme.appointmentTypeIds[0];
    const cases: [unknown, RegExp][] = [
      [{ duration: 0 }, /duration must be >= 5/],
      [{ duration: 12.5 }, /duration must be integer/],
      [{ duration: '45' }, /duration must be integer/],
      [{ name: '  ' }, /name must not be blank/],
      [{ color: 'blue' }, /color must match pattern/],
      [{}, /must NOT have fewer than 1 properties/],
    ];
    for (const [body, message] of cases) {
      const response = await t.request('PUT', `/api/appointment_types/${id}`, { token: acme.tokens.admin, body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message).toMatch(message);
    }
  });
});
