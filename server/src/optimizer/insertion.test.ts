import { describe, expect, it } from 'vitest';
import { cheapestInsertion } from './insertion';
import { travelMatrixFor } from './solve';
import type { Problem, Visit } from './types';

const H = 3600;
const at = (dLng: number) => ({ lat: -27.47, lng: 153.02 + dLng });
/** A visit kept at its time with its practitioner, as the day is. */
const kept = (id: string, dLng: number, start: number, practitionerId: string): Visit =>
  ({ id, location: at(dLng), duration: 1800, pinnedStart: start, pinnedPractitionerId: practitionerId });

function day(newVisit: Partial<Visit> = {}): Problem {
  return {
    visits: [
      kept('w1', -0.1, 9 * H, 'west'), kept('w2', -0.11, 10 * H, 'west'),
      kept('e1', 0.1, 9 * H, 'east'), kept('e2', 0.11, 12 * H, 'east'),
      { id: 'new', location: at(0.105), duration: 1800, ...newVisit },
    ],
    practitioners: [
      { id: 'west', startLocation: at(-0.1), shift: { start: 8 * H, end: 17 * H }, skills: ['nursing', 'physio'] },
      { id: 'east', startLocation: at(0.1), shift: { start: 8 * H, end: 17 * H }, skills: ['nursing'] },
    ],
  };
}
const current = [{ practitionerId: 'west', visitIds: ['w1', 'w2'] }, { practitionerId: 'east', visitIds: ['e1', 'e2'] }];

describe('cheapestInsertion', () => {
  it('puts the visit where it adds least travel, between the visits as they are, which keep their times', async () => {
    const problem = day();
    const matrix = await travelMatrixFor(problem);
    const insertion = cheapestInsertion(problem, matrix, current, 'new')!;
    expect(insertion).toMatchObject({ practitionerId: 'east', position: 1 });
    const stops = insertion.route.stops;
    expect(stops.map((stop) => stop.visitId)).toEqual(['e1', 'new', 'e2']);
    expect(stops[0].start).toBe(9 * H);
    expect(stops[2].start).toBe(12 * H);
    // Right after the visit before (travel included), on the 5-minute step.
    expect(stops[1].start).toBeGreaterThanOrEqual(stops[0].departure + stops[1].travelTime);
    expect(stops[1].start % 300).toBe(0);
    expect(stops[1].start - (stops[0].departure + stops[1].travelTime)).toBeLessThan(300);
    // e1 → new → e2 instead of e1 → e2: a short detour.
    expect(insertion.addedTravelTime).toBeGreaterThan(0);
    expect(insertion.addedTravelTime).toBeLessThan(10 * 60);
  });

  it('only gives it to a practitioner with the skill, and only inside its window', async () => {
    const physio = day({ requiredSkill: 'physio' });
    const toWest = cheapestInsertion(physio, await travelMatrixFor(physio), current, 'new')!;
    expect(toWest.practitionerId).toBe('west');
    expect(toWest.addedTravelTime).toBeGreaterThan(toWest.route.stops[0].travelTime);
    // 09:00–09:20 is taken by each practitioner's first visit: nowhere fits.
    const early = day({ timeWindows: [{ start: 9 * H, end: 9 * H + 1200 }] });
    expect(cheapestInsertion(early, await travelMatrixFor(early), current, 'new')).toBeNull();
  });

  it('finds no room in a day that is already impossible as it is', async () => {
    // East's two visits overlap: their day cannot be kept, so nothing can be added to it.
    const problem = day();
    problem.visits[3] = kept('e2', 0.11, 9 * H + 600, 'east');
    const insertion = cheapestInsertion(problem, await travelMatrixFor(problem), current, 'new')!;
    expect(insertion.practitionerId).toBe('west');
  });
});
