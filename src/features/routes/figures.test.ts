import { describe, expect, it } from 'vitest';
import { kpiRows, travelHeadline } from './figures';

const kpis = (overrides: Partial<Record<string, number>> = {}) => ({
  travel_seconds: 22_349, travel_metres: 185_061, idle_seconds: 36_229, outside_availability: 2, overtime_seconds: 0, unplaced: 0, ...overrides,
});

describe('proposal figures', () => {
  it('lists every KPI before → after with what got better or worse', () => {
    const rows = kpiRows(kpis(), kpis({ travel_seconds: 16_943, travel_metres: 134_694, idle_seconds: 7_386, outside_availability: 0, unplaced: 1 }));
    expect(rows.map((row) => [row.label, row.before, row.after, row.trend, row.change])).toEqual([
      ['Travel time', '6 h 12 min', '4 h 42 min', 'better', '−1 h 30 min'],
      ['Travel distance', '185 km', '135 km', 'better', '−50 km'],
      ['Idle time', '10 h 04 min', '2 h 03 min', 'better', '−8 h 01 min'],
      ['Visits outside availability', '2', '0', 'better', '−2'],
      ['Overtime', '0 min', '0 min', 'same', ''],
      ['Visits not placed', '0', '1', 'worse', '+1'],
    ]);
    expect(travelHeadline(kpis(), kpis({ travel_seconds: 16_943 }))).toBe('travel 6 h 12 min → 4 h 42 min');
  });

  it('counts a difference too small to show as unchanged', () => {
    expect(kpiRows(kpis(), kpis({ travel_seconds: 22_340 }))[0]).toMatchObject({ trend: 'same', change: '' });
  });
});
