import { describe, expect, it } from 'vitest';
import { checkSolution } from './checker';
import { planOf } from './core/start';
import { Rng } from './rng';
import { solve, travelMatrixFor } from './solve';
import type { Problem, StartRoute } from './types';

const H = 3600;
// Planar travel (one unit is one second): five practitioners and sixty half-hour visits within an hour of each other,
// each visit with a three-hour window, two of the practitioners with a lunch break.
function day(seed: number): Problem {
  const rng = new Rng(seed);
  const point = () => ({ lat: rng.int(2400), lng: rng.int(2400) });
  return {
    coordinates: 'planar',
    arrivalStepSeconds: 0,
    practitioners: Array.from({ length: 5 }, (_, k) => ({
      id: `p${k}`, startLocation: point(), shift: { start: 8 * H, end: 18 * H },
      ...(k < 2 ? { break: { earliestStart: 12 * H, latestStart: 13 * H, duration: 1800 } } : {}),
    })),
    visits: Array.from({ length: 60 }, (_, i) => {
      const from = (8 + rng.int(7)) * H;
      return { id: `v${i}`, location: point(), duration: 1800, timeWindows: [{ start: from, end: from + 3 * H }] };
    }),
  };
}

describe('a plan to start from', () => {
  it('is never made worse: one iteration from a good plan answers at most its cost, where one from scratch does not', async () => {
    const problem = day(3);
    const travel = await travelMatrixFor(problem);
    const good = await solve(problem, { maxIterations: 20_000, seed: 1, travel });
    const fromScratch = await solve(problem, { maxIterations: 1, seed: 2, travel });
    const fromGood = await solve(problem, { maxIterations: 1, seed: 2, travel, startFrom: planOf(good) });
    expect(fromScratch.objective.total).toBeGreaterThan(good.objective.total);
    expect(fromGood.objective.total).toBeLessThanOrEqual(good.objective.total + 1e-6);
    expect(checkSolution(problem, fromGood, travel).errors).toEqual([]);
  });

  it('leaves out what breaks a route where it is (a visit twice, on another route, out of its window, unknown) and places it', async () => {
    const problem = day(5);
    const travel = await travelMatrixFor(problem);
    const good = planOf(await solve(problem, { maxIterations: 20_000, seed: 1, travel }));
    const [first, second] = good.filter((route) => route.visitIds.length >= 2);
    // The first route backwards (windows broken), the second's first visit also on the first route, an unknown visit
    // and a practitioner who does not exist.
    const broken: StartRoute[] = [
      { ...first, visitIds: ['nobody', ...[...first.visitIds].reverse(), second.visitIds[0]] },
      second,
      { practitionerId: 'p-unknown', visitIds: good.flatMap((route) => route.visitIds).slice(0, 3) },
      ...good.filter((route) => route !== first && route !== second),
    ];
    const solution = await solve(problem, { maxIterations: 2_000, seed: 2, travel, startFrom: broken });
    expect(checkSolution(problem, solution, travel).errors).toEqual([]);
    expect(solution.unassigned).toEqual([]);
    expect(new Set(solution.routes.flatMap((route) => route.stops.map((stop) => stop.visitId))).size).toBe(60);
  });
});
