// Account settings (issue 14): read and saved by an ADMIN of the business only, 422 naming the field, the change in
// the Activity report as a settings change, the signed-in user's business summary and "today" following the time zone.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versions } from '../../server/src/db/schema';
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
afterAll(() => t?.close());

const patch = (body: unknown, token = acme.tokens.admin) => t.request('PATCH', '/api/business_account', { token, body });

describe('account settings', () => {
  it('start with the spec’s defaults: Brisbane centre, reminders at 2 and on, ETA messages on, week from Monday, arrivals flagged beyond 300 m, visits overdue after 15 min, clients told of a re-plan moving them 15 min', async () => {
    const response = await t.request('GET', '/api/business_account', { token: acme.tokens.admin });
    expect(response.status).toBe(200);
    expect(response.body.business_account).toEqual({
      id: acme.businessAccountId, name: 'acme Care', time_zone: 'Australia/Brisbane', contact_email: '', contact_phone: '',
      map_center: { lat: -27.4795412, lng: 153.0160444 }, map_center_is_default: true, week_start: 1, reminder_hour: 2, reminders_enabled: true,
      eta_messages_enabled: true, arrival_far_metres: 300, overdue_after_minutes: 15, eta_replan_minutes: 15, care_plan_weeks_ahead: 4,
    });
  });

  it('keep how far a re-plan must move an arrival for its client to be told: 5 to 240 whole minutes, else 422 naming the field', async () => {
    for (const bad of [4, 241, 12.5, '30']) {
      const refused = await patch({ eta_replan_minutes: bad });
      expect(refused.status, String(bad)).toBe(422);
      expect(refused.body.message).toContain('eta_replan_minutes');
    }
    const saved = await patch({ eta_replan_minutes: 30 });
    expect(saved.status).toBe(200);
    expect(saved.body.business_account.eta_replan_minutes).toBe(30);
    const user = await t.request('GET', '/api/auth/user', { token: acme.tokens.staff });
    expect(user.body.user.business_account.eta_replan_minutes).toBe(30);
    expect((await patch({ eta_replan_minutes: 15 })).status).toBe(200);
  });

  it('are for ADMIN only', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('GET', '/api/business_account', { token })).status).toBe(403);
      expect((await patch({ name: 'Taken over' }, token)).status).toBe(403);
    }
    expect((await t.request('GET', '/api/business_account')).status).toBe(401);
  });

  it('save what an admin changes, in the caller’s business only, and record it for the Activity report', async () => {
    const response = await patch({
      name: '  Acme Home Care ', time_zone: 'australia/perth', contact_email: 'office@acme.test', contact_phone: '+61 7 3000 0000',
      map_center: { lat: -31.95, lng: 115.86 }, week_start: 0, reminder_hour: 18, reminders_enabled: false,
    });
    expect(response.status).toBe(200);
    expect(response.body.business_account).toMatchObject({
      name: 'Acme Home Care', time_zone: 'Australia/Perth', contact_email: 'office@acme.test', contact_phone: '+61 7 3000 0000',
      map_center: { lat: -31.95, lng: 115.86 }, map_center_is_default: false, week_start: 0, reminder_hour: 18, reminders_enabled: false,
    });
    const untouched = await t.request('GET', '/api/business_account', { token: other.tokens.admin });
    expect(untouched.body.business_account).toMatchObject({ name: 'other Care', time_zone: 'Australia/Brisbane', reminder_hour: 2 });

    // The signed-in user's business summary carries what the app needs: the zone, the map centre, the week start and when a visit is overdue.
    const user = await t.request('GET', '/api/auth/user', { token: acme.tokens.staff });
    expect(user.body.user.business_account).toEqual({
      id: acme.businessAccountId, name: 'Acme Home Care', time_zone: 'Australia/Perth', map_center: { lat: -31.95, lng: 115.86 }, week_start: 0,
      overdue_after_minutes: 15, eta_messages_enabled: true, eta_replan_minutes: 15,
    });

    const activity = await t.request('GET', '/api/reports/activity?kinds=settings', { token: acme.tokens.admin });
    expect(activity.status).toBe(200);
    const row = activity.body.rows.find((entry: { what: string }) => entry.what === 'Account settings');
    expect(row).toMatchObject({ kind: 'settings', who: 'Ada acme' });
    const labels = row.changes.map((change: { label: string; from: unknown; to: unknown }) => [change.label, change.from, change.to]);
    expect(labels).toEqual(expect.arrayContaining([
      ['Name', 'acme Care', 'Acme Home Care'], ['Time zone', 'Australia/Brisbane', 'Australia/Perth'], ['Week starts on', 'Monday', 'Sunday'],
      ['Reminder hour', '02:00', '18:00'], ['Default map centre', 'Brisbane (default)', '-31.9500, 115.8600'],
    ]));

    // map_center null returns to Brisbane; saving the same values again records nothing.
    expect((await patch({ map_center: null })).body.business_account).toMatchObject({ map_center: { lat: -27.4795412, lng: 153.0160444 }, map_center_is_default: true });
    const count = async () => (await t.ctx.db.select().from(versions)
      .where(and(eq(versions.item_type, 'BusinessAccount'), eq(versions.item_id, acme.businessAccountId)))).length;
    const before = await count();
    expect((await patch({ week_start: 0 })).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('answer 422 naming the field for wrong values', async () => {
    const cases: [unknown, string][] = [
      [{ name: '   ' }, 'name'], [{ time_zone: 'Mars/Olympus' }, 'time_zone'], [{ time_zone: '+10:00' }, 'time_zone'],
      [{ contact_email: 'not an email' }, 'contact_email'], [{ contact_phone: 'call me' }, 'contact_phone'],
      [{ week_start: 7 }, 'week_start'], [{ reminder_hour: 24 }, 'reminder_hour'], [{ map_center: { lat: 91, lng: 0 } }, 'map_center'],
      [{ reminders_enabled: 'yes' }, 'reminders_enabled'], [{}, ''], [{ tenant: 2 }, ''],
    ];
    for (const [body, field] of cases) {
      const response = await patch(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(`${response.body.message} ${(response.body.errors ?? []).join(' ')}`, JSON.stringify(body)).toContain(field);
    }
  });

  it('move "today" of the dashboard with the time zone', async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC−11) are never on the same calendar day.
    await patch({ time_zone: 'Pacific/Kiritimati' }, other.tokens.admin);
    const east = (await t.request('GET', '/api/dashboard', { token: other.tokens.admin })).body.today;
    await patch({ time_zone: 'Pacific/Pago_Pago' }, other.tokens.admin);
    const west = (await t.request('GET', '/api/dashboard', { token: other.tokens.admin })).body.today;
    expect(east).not.toBe(west);
    const zoned = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    expect([zoned('Pacific/Kiritimati'), zoned('Pacific/Pago_Pago')]).toEqual([east, west]);
  });
});
