import { describe, expect, it } from 'vitest';
import { checkSolution } from './checker';
import { solve, travelMatrixFor } from './solve';
import type { Problem, Solution } from './types';

const H = 3600;
// Planar travel: one unit is one second. Both practitioners live at the origin; each has a visit of their own nearby
// (pinned), and six one-hour visits wait in a cluster five minutes away: the shortest travel sends one practitioner to
// all six (one trip), which makes a 7-hour day next to a 1-hour one.
const problem = (balance?: number): Problem => ({
  coordinates: 'planar',
  arrivalStepSeconds: 0,
  practitioners: ['a', 'b'].map((id) => ({ id, startLocation: { lat: 0, lng: 0 }, shift: { start: 8 * H, end: 18 * H } })),
  visits: [
    { id: 'own-a', location: { lat: 0, lng: 100 }, duration: H, pinnedPractitionerId: 'a' },
    { id: 'own-b', location: { lat: 0, lng: -100 }, duration: H, pinnedPractitionerId: 'b' },
    ...Array.from({ length: 6 }, (_, i) => ({ id: `cluster-${i}`, location: { lat: 10 * i, lng: 300 }, duration: H })),
  ],
  ...(balance === undefined ? {} : { weights: { balance } }),
});

const workingHours = (solution: Solution) => solution.routes.map((route) => (route.arriveEnd - route.departStart) / H);
const spread = (solution: Solution) => Math.max(...workingHours(solution)) - Math.min(...workingHours(solution));
const clusterVisits = (solution: Solution) =>
  solution.routes.map((route) => route.stops.filter((stop) => stop.visitId.startsWith('cluster')).length).sort();

async function solveAndCheck(p: Problem) {
  const matrix = await travelMatrixFor(p);
  const solution = await solve(p, { maxIterations: 500, seed: 4, travel: matrix });
  const check = checkSolution(p, solution, matrix);
  expect(check.errors).toEqual([]);
  return solution;
}

describe('balance weight', () => {
  it('off, one practitioner takes the whole cluster; on, the day is shared and the spread of working time shrinks', async () => {
    const off = await solveAndCheck(problem());
    const on = await solveAndCheck(problem(10));
    expect(clusterVisits(off)).toEqual([0, 6]);
    expect(off.objective.balance).toBe(0);
    expect(clusterVisits(on)).toEqual([3, 3]);
    expect(spread(off)).toBeGreaterThan(5.5);
    expect(spread(on)).toBeLessThan(0.5);
    // It costs a little travel: both drive to the cluster.
    expect(on.objective.travelTime).toBeGreaterThan(off.objective.travelTime);
    const squares = workingHours(on).reduce((sum, hours) => sum + hours * hours, 0);
    expect(on.objective.balance).toBeCloseTo(10 * squares, 6);
    expect(on.objective.total).toBeCloseTo(on.objective.travelCost + on.objective.balance, 6);
  });

  it('a weight of 0 is the same search as no weight: the same routes for a fixed seed', async () => {
    const none = await solveAndCheck(problem());
    const zero = await solveAndCheck(problem(0));
    expect(zero.routes).toEqual(none.routes);
    expect(zero.objective).toEqual(none.objective);
  });

  it('over several days: a practitioner with more hours on earlier days is given less of this one', async () => {
    const p = problem(10);
    // a has worked 6 hours more than b on the plan's earlier days: b takes the cluster and the plan's totals even out.
    p.practitioners[0].workedBeforeSeconds = 6 * H;
    const solution = await solveAndCheck(p);
    const clusterOf = (id: string) => solution.routes.find((route) => route.practitionerId === id)!.stops.filter((stop) => stop.visitId.startsWith('cluster')).length;
    expect([clusterOf('a'), clusterOf('b')]).toEqual([0, 6]);
    const [a, b] = ['a', 'b'].map((id) => solution.routes.find((route) => route.practitionerId === id)!).map((route) => (route.arriveEnd - route.departStart) / H);
    expect(solution.objective.balance).toBeCloseTo(10 * (a * (a + 12) + b * b), 6);
  });

  it('the checker recomputes the balance term and refuses a wrong one', async () => {
    const p = problem(10);
    const matrix = await travelMatrixFor(p);
    const solution = await solve(p, { maxIterations: 200, seed: 1, travel: matrix });
    const wrong = { ...solution, objective: { ...solution.objective, balance: solution.objective.balance / 2 } };
    expect(checkSolution(p, wrong, matrix).errors).toEqual([expect.stringMatching(/^objective: balance /)]);
  });
});
