// Optimisation settings (issue 12): defaults until saved (the same as the database's), presets that write their
// weights, weights by hand that make the preset custom, 422 naming the field, the change log, roles and tenancy.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optimizationSettings, versions } from '../../server/src/db/schema';
import { optimizationSettingsOf } from '../../server/src/modules/optimization-settings';
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

const get = async (token = acme.tokens.admin) => {
  const response = await t.request('GET', '/api/optimization_settings', { token });
  expect(response.status).toBe(200);
  return response.body.optimization_settings;
};
const put = (body: unknown, token = acme.tokens.admin) => t.request('PUT', '/api/optimization_settings', { token, body });
const versionsOf = (businessAccountId: number) => t.ctx.db.select().from(versions)
  .where(and(eq(versions.item_type, 'OptimizationSettings'), eq(versions.item_id, businessAccountId))).orderBy(asc(versions.id));

const BALANCED = { travel_time: 1, distance: 0, continuity: 0.25, lateness: 0.5, overtime: 1 };

describe('optimisation settings', () => {
  it('are the defaults until saved, the same as the database’s column defaults, readable by ADMIN and REGULAR_USER', async () => {
    const defaults = await get();
    expect(defaults).toEqual({
      availability_mode: 'hard', max_lateness_minutes: 30, overtime_minutes: 0, visit_buffer_minutes: 0, arrival_rounding_minutes: 5,
      preset: 'balanced', weights: BALANCED, search_seconds: 10, allow_reassignment: true, fixed_before_minutes: 30, tolerance_minutes: 30, client_gap_minutes: 60,
      balance_workload: false, balance_weight: 10, move_price: 0.25, updated_at: null,
      call_in_min_visits: 3, call_in_min_minutes: 180,
      preset_weights: {
        shortest_travel: { travel_time: 1, distance: 0, continuity: 0, lateness: 0, overtime: 0 },
        balanced: BALANCED,
        punctual: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 5, overtime: 2 },
        continuity: { travel_time: 1, distance: 0, continuity: 2, lateness: 0.5, overtime: 1 },
      },
    });
    expect(await get(acme.tokens.staff)).toEqual(defaults);
    expect((await t.request('GET', '/api/optimization_settings', { token: acme.tokens.practitioner })).status).toBe(403);

    // A row with nothing but the column defaults (migration 0050) reads the same.
    const scratch = await createBusinessFixture(t, 'scratch');
    await t.ctx.db.insert(optimizationSettings).values({ business_account_id: scratch.businessAccountId });
    const { updated_at: _updatedAt, ...fromDatabase } = await get(scratch.tokens.admin);
    const { updated_at: _never, ...fromCode } = defaults;
    expect(fromDatabase).toEqual(fromCode);
  });

  it('saving a preset writes its weights; saving weights by hand makes the preset custom; each save is versioned', async () => {
    const punctual = await put({ preset: 'punctual', availability_mode: 'soft', max_lateness_minutes: 20 });
    expect(punctual.status, JSON.stringify(punctual.body)).toBe(200);
    expect(punctual.body.optimization_settings).toMatchObject({
      preset: 'punctual', weights: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 5, overtime: 2 },
      availability_mode: 'soft', max_lateness_minutes: 20, overtime_minutes: 0, updated_at: expect.any(String),
    });
    expect(await get(acme.tokens.staff)).toEqual(punctual.body.optimization_settings);

    const byHand = await put({ weights: { travel_time: 2, distance: 0.5, continuity: 0, lateness: 1, overtime: 3 } });
    expect(byHand.body.optimization_settings).toMatchObject({
      preset: 'custom', weights: { travel_time: 2, distance: 0.5, continuity: 0, lateness: 1, overtime: 3 }, availability_mode: 'soft',
    });
    // A preset sent with its own weights (the whole form) is that preset.
    const whole = await put({ ...punctual.body.optimization_settings, preset: 'continuity', weights: punctual.body.optimization_settings.preset_weights.continuity,
      preset_weights: undefined, updated_at: undefined });
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.optimization_settings).toMatchObject({ preset: 'continuity', weights: { continuity: 2 } });
    const custom = await put({ preset: 'custom' });
    expect(custom.body.optimization_settings).toMatchObject({ preset: 'custom', weights: { continuity: 2 } });

    const rows = await versionsOf(acme.businessAccountId);
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.whodunnit === 'Ada acme' && row.event === 'update')).toBe(true);
    expect(rows[0].object_changes).toEqual({
      availability_mode: ['hard', 'soft'], max_lateness_minutes: [30, 20], preset: ['balanced', 'punctual'],
      weights: [BALANCED, { travel_time: 1, distance: 0, continuity: 0.25, lateness: 5, overtime: 2 }],
    });
    expect(rows[3].object_changes).toEqual({ preset: ['continuity', 'custom'] });

    // What a run reads.
    expect(await optimizationSettingsOf(t.ctx.db, acme.businessAccountId)).toMatchObject({ preset: 'custom', availability_mode: 'soft', weights: { continuity: 2 } });
    expect(await optimizationSettingsOf(t.ctx.db, other.businessAccountId)).toMatchObject({ preset: 'balanced', weights: BALANCED });
  });

  it('refuses bad input with 422 naming the field, changing nothing', async () => {
    const before = await get();
    const count = (await versionsOf(acme.businessAccountId)).length;
    const cases: [unknown, RegExp][] = [
      [{ preset: 'balanced', weights: { travel_time: 9, distance: 0, continuity: 0, lateness: 0, overtime: 0 } }, /^weights: these are not the weights of the balanced preset/],
      [{ preset: 'fastest' }, /preset must be one of shortest_travel, balanced, punctual, continuity, custom/],
      [{ availability_mode: 'flexible' }, /availability_mode must be one of hard, soft/],
      [{ arrival_rounding_minutes: 7 }, /arrival_rounding_minutes must be one of 0, 1, 5, 10, 15/],
      [{ max_lateness_minutes: 241 }, /max_lateness_minutes/],
      [{ overtime_minutes: -1 }, /overtime_minutes/],
      [{ visit_buffer_minutes: 61 }, /visit_buffer_minutes/],
      [{ search_seconds: 0 }, /search_seconds/],
      [{ search_seconds: 1.5 }, /search_seconds must be integer/],
      [{ allow_reassignment: 'yes' }, /allow_reassignment must be boolean/],
      [{ balance_workload: 'yes' }, /balance_workload must be boolean/],
      [{ balance_weight: -1 }, /balance_weight/],
      [{ balance_weight: 1001 }, /balance_weight/],
      [{ weights: { travel_time: 1, distance: 0, continuity: 0, lateness: -1, overtime: 0 } }, /weights\.lateness/],
      [{ weights: { travel_time: 1 } }, /weights\.distance is required/],
      [{ weights: { travel_time: 1, distance: 0, continuity: 0, lateness: 0, overtime: 0, speed: 1 } }, /weights\.speed is not an allowed field/],
      [{ preset_weights: {} }, /preset_weights is not an allowed field/],
      [{}, /body/],
    ];
    for (const [body, message] of cases) {
      const response = await put(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await get()).toEqual(before);
    expect(await versionsOf(acme.businessAccountId)).toHaveLength(count);
  });

  it('balancing the day is a plain choice with its own weight, kept apart from the preset, read by a run', async () => {
    const preset = (await get()).preset;
    const on = await put({ balance_workload: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.optimization_settings).toMatchObject({ balance_workload: true, balance_weight: 10, preset });
    const weighted = await put({ balance_weight: 2.5 });
    expect(weighted.body.optimization_settings).toMatchObject({ balance_workload: true, balance_weight: 2.5, preset });
    expect((await versionsOf(acme.businessAccountId)).at(-1)!.object_changes).toEqual({ balance_weight: [10, 2.5] });
    expect(await optimizationSettingsOf(t.ctx.db, acme.businessAccountId)).toMatchObject({ balance_workload: true, balance_weight: 2.5 });
    const off = await put({ balance_workload: false });
    expect(off.body.optimization_settings).toMatchObject({ balance_workload: false, balance_weight: 2.5 });
    expect(await get(other.tokens.staff)).toMatchObject({ balance_workload: false, balance_weight: 10 });
    expect((await put({ balance_workload: true }, acme.tokens.staff)).status).toBe(403);
  });

  it('only an admin saves them, and only their own business’s', async () => {
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await put({ preset: 'shortest_travel' }, token)).status).toBe(403);
    }
    expect((await get()).preset).toBe('custom');
    expect((await put({ preset: 'shortest_travel' }, other.tokens.admin)).status).toBe(200);
    expect((await get()).preset).toBe('custom');
    expect((await get(other.tokens.staff)).weights).toEqual({ travel_time: 1, distance: 0, continuity: 0, lateness: 0, overtime: 0 });
  });
});
