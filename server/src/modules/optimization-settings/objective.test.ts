// What the weights mean to the optimiser: one scale where 1 is a minute of travel.
import { describe, expect, it } from 'vitest';
import { objectiveOf, searchTimeMs } from './objective';
import { PRESET_WEIGHTS } from './presets';

describe('objectiveOf', () => {
  it('prices a minute of travel at 1 and continuity in hours of travel (balanced: a handover costs 15 minutes)', () => {
    const objective = objectiveOf(PRESET_WEIGHTS.balanced);
    expect(objective.costPerHour).toBe(60);
    expect(objective.costPerKm).toBe(0);
    expect(objective.weights).toEqual({ travelCost: 1, continuity: 15, lateness: 0.5, overtime: 1, balance: 0 });
    // Doubling travel_time doubles what an hour of driving costs against the same continuity.
    expect(objectiveOf({ ...PRESET_WEIGHTS.balanced, travel_time: 2 }).costPerHour).toBe(120);
  });

  it('prices balance per hour² of working time, in minutes of travel', () => {
    expect(objectiveOf(PRESET_WEIGHTS.balanced, 10).weights.balance).toBe(10);
  });

  it('caps the search time at the server knob', () => {
    expect(searchTimeMs({ search_seconds: 10 }, null)).toBe(10_000);
    expect(searchTimeMs({ search_seconds: 10 }, 300)).toBe(300);
  });
});
