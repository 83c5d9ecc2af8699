// The demo as `npm start` creates it (issue 12): after the first import from the sandbox, every practitioner has a
// home inside Brisbane and working hours, so "Optimise" has someone to route on a fresh demo.
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { practitioners } from '../../server/src/db/schema';
import { seedDemoFromPms } from '../../server/src/demo/seed';
import { loadPractitionerDays } from '../../server/src/modules/practitioners';
import { startSandbox, type SandboxHandle } from '../../server/src/pms/sandbox';
import { startTestApp, type TestApp } from './support/app';

let t: TestApp;
let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ weeks: 2, patients: 40, practitioners: 5, inactivePractitioners: 1 });
  t = await startTestApp({ clinikoBaseUrl: sandbox.url });
  await seedDemoFromPms(t.ctx, sandbox.apiKey);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

describe('the demo’s practitioners', () => {
  it('all start at a home inside Brisbane and work weekdays, so the next weekday can be optimised', async () => {
    const staff = await t.ctx.db.select().from(practitioners);
    expect(staff).toHaveLength(5);
    let next = Temporal.Now.plainDateISO('Australia/Brisbane').add({ days: 1 });
    while (next.dayOfWeek > 5) next = next.add({ days: 1 });
    const days = await loadPractitionerDays(t.ctx.db, staff[0].business_account_id, staff.map((p) => p.id), next.toString());
    expect(days).toHaveLength(5);
    for (const day of days) {
      expect(day.problems, day.name).toEqual([]);
      expect(day.shift).toEqual({ start: 7 * 3600, end: 17.5 * 3600 });
      expect(day.startPlace).toMatchObject({ kind: 'home' });
      expect(day.startPlace!.lat).toBeGreaterThan(-27.75);
      expect(day.startPlace!.lat).toBeLessThan(-27.2);
      expect(day.startPlace!.lng).toBeGreaterThan(152.75);
      expect(day.startPlace!.lng).toBeLessThan(153.35);
    }
    expect(days.filter((day) => day.endPlace?.kind === 'custom_location').map((day) => day.endPlace!.name)).toEqual(['Staff car park']);
    for (const p of staff) expect(p.home_address, `${p.first_name} ${p.last_name}`).toMatch(/^\d+ .+, .+ QLD 4\d{3}$/);
    // Placed on the sandbox's synthetic streets, and said so wherever the home is shown.
    for (const p of staff) expect([p.home_geo_precision, p.home_geo_source], `${p.first_name} ${p.last_name}`).toEqual(['street', 'sandbox']);
    // Qualifications from Cliniko on every practitioner (issue 35): none is left unknown, none delivers nothing.
    for (const day of days) expect(day.skills?.length, day.name).toBeGreaterThan(0);
  });
});
