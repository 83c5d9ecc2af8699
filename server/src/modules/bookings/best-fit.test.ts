import { describe, expect, it } from 'vitest';
import { rank } from './best-fit';

const fit = (practitioner_id: number, cost: number, added_travel_seconds: number, flags: { preferred?: boolean; continuity?: boolean } = {}) =>
  ({ practitioner_id, cost, added_travel_seconds, preferred: flags.preferred ?? false, continuity: flags.continuity ?? false });

describe('best fit ranking', () => {
  it('puts the cheapest first', () => {
    expect(rank([fit(1, 30, 900), fit(2, 10, 300), fit(3, 20, 600)]).map((f) => f.practitioner_id)).toEqual([2, 3, 1]);
  });

  it('puts a preferred or familiar practitioner first when they add at most 10 minutes more travel than the least', () => {
    const ranked = rank([fit(1, 10, 300), fit(2, 25, 900, { preferred: true }), fit(3, 20, 800, { continuity: true })]);
    expect(ranked.map((f) => f.practitioner_id)).toEqual([3, 2, 1]);
  });

  it('does not put them first when they add more than 10 minutes more', () => {
    const ranked = rank([fit(1, 10, 300), fit(2, 40, 901, { preferred: true })]);
    expect(ranked.map((f) => f.practitioner_id)).toEqual([1, 2]);
  });
});
