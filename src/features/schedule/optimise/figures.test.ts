import { describe, expect, it } from 'vitest';
import type { components } from '../../../api/schema';
import { kpiRows, totalKpis, travelHeadline } from './figures';

const kpis = (overrides: Partial<Record<string, number>> = {}) => ({
  travel_seconds: 22_349, travel_metres: 185_061, idle_seconds: 36_229, outside_availability: 2, overtime_seconds: 0, working_spread_seconds: 11_400,
  unplaced: 0, ...overrides,
});

describe('proposal figures', () => {
  it('lists every KPI before → after with what got better or worse', () => {
    const rows = kpiRows(kpis(), kpis({ travel_seconds: 16_943, travel_metres: 134_694, idle_seconds: 7_386, outside_availability: 0, working_spread_seconds: 6_000, unplaced: 1 }));
    expect(rows.map((row) => [row.label, row.before, row.after, row.trend, row.change])).toEqual([
      ['Travel time', '6 h 12 min', '4 h 42 min', 'better', '−1 h 30 min'],
      ['Travel distance', '185 km', '135 km', 'better', '−50 km'],
      ['Idle time', '10 h 04 min', '2 h 03 min', 'better', '−8 h 01 min'],
      ['Visits outside availability', '2', '0', 'better', '−2'],
      ['Overtime', '0 min', '0 min', 'same', ''],
      ['Spread of working time', '3 h 10 min', '1 h 40 min', 'better', '−1 h 30 min'],
      ['Visits not placed', '0', '1', 'worse', '+1'],
    ]);
    // Reassigning, the proposal also counts the visits away from their usual practitioner.
    expect(kpiRows(kpis({ away_from_usual: 3 }), kpis({ away_from_usual: 5 })).at(-1)).toMatchObject({
      label: 'Visits away from their usual practitioner', before: '3', after: '5', trend: 'worse', change: '+2',
    });
    expect(travelHeadline(kpis(), kpis({ travel_seconds: 16_943 }))).toBe('travel 6 h 12 min → 4 h 42 min');
  });

  it('leaves out the spread of working time for a proposal made before it was measured', () => {
    const { working_spread_seconds: _before, ...older } = kpis();
    expect(kpiRows(older, older).map((row) => row.label)).not.toContain('Spread of working time');
    expect(kpiRows(older, older)).toHaveLength(6);
  });

  it('counts a difference too small to show as unchanged', () => {
    expect(kpiRows(kpis(), kpis({ travel_seconds: 22_340 }))[0]).toMatchObject({ trend: 'same', change: '' });
  });

  it('gives the difference of the figures as shown, so before, after and change add up', () => {
    // 7 h 11 min 29 s → 5 h 22 min 31 s is 1 h 48 min 58 s apart, shown "7 h 11 min → 5 h 23 min": the change is 1 h 48 min.
    // 214.4 km → 153.6 km is 60.8 km apart, shown "214 km → 154 km": the change is 60 km.
    const rows = kpiRows(kpis({ travel_seconds: 25_889, travel_metres: 214_400 }), kpis({ travel_seconds: 19_351, travel_metres: 153_600 }));
    expect(rows.slice(0, 2).map((row) => [row.before, row.after, row.change])).toEqual([
      ['7 h 11 min', '5 h 23 min', '−1 h 48 min'],
      ['214 km', '154 km', '−60 km'],
    ]);
    // Figures shown at different precisions: the change is exact to the finer one.
    expect(kpiRows(kpis({ travel_metres: 214_400 }), kpis({ travel_metres: 9_540 }))[1]).toMatchObject({ before: '214 km', after: '9.5 km', change: '−204.5 km' });
    expect(kpiRows(kpis({ travel_metres: 1_240 }), kpis({ travel_metres: 786 }))[1]).toMatchObject({ before: '1.2 km', after: '790 m', change: '−410 m' });
  });

  it('adds a run\'s days up, and measures the spread of working time over the days together', () => {
    // Pat works 8 h then 2 h, Quinn 5 h then 5 h: each day's spread is 3 h, the days' together 0.
    const lane = (practitioner_id: number, hours: number) => {
      const side = { stops: [{}], depart_at: '2026-11-25T08:00:00Z', end_at: new Date(Date.parse('2026-11-25T08:00:00Z') + hours * 3_600_000).toISOString() };
      return { practitioner_id, before: side, after: side };
    };
    const day = (pat: number, quinn: number) =>
      ({ kpis: { before: kpis(), after: kpis() }, lanes: [lane(1, pat), lane(2, quinn)] }) as unknown as components['schemas']['OptimizationProposal'];
    const total = totalKpis([day(8, 5), day(2, 5)], 'after');
    expect(total).toMatchObject({ travel_seconds: 2 * 22_349, outside_availability: 4, working_spread_seconds: 0 });
    expect(totalKpis([day(8, 5), day(8, 5)], 'before').working_spread_seconds).toBe(6 * 3600);
  });
});

