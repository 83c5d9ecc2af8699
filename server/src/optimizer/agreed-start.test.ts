import { describe, expect, it } from 'vitest';
import { checkSolution } from './checker';
import { solve, travelMatrixFor } from './solve';
import type { Problem, TravelMatrix } from './types';
import { validateProblem } from './validate';

const H = 3600;
const MIN = 60;

/**
 * Two visits A (agreed 10:00) and B (agreed 11:30), 30 minutes each, one practitioner from S to E. Travel (seconds):
 * S→A 600, S→B 600, A↔B 300, A→E 600, B→E 660. As agreed (S A B E) the day travels 1,560 s; swapped (S B A E) 1,500 s:
 * a swap that saves one minute of travel and moves the visits 90 minutes each if they swap times (125 minutes in all
 * at the least: one keeps its time, the other follows it).
 */
function swapDay(moved: number): { problem: Problem; matrix: TravelMatrix } {
  const problem: Problem = {
    visits: [
      { id: 'A', location: { lat: 0, lng: 0 }, duration: 30 * MIN, agreedStart: 10 * H },
      { id: 'B', location: { lat: 0, lng: 1 }, duration: 30 * MIN, agreedStart: 11.5 * H },
    ],
    practitioners: [{ id: 'p', startLocation: { lat: 1, lng: 0 }, endLocation: { lat: 1, lng: 1 }, shift: { start: 8 * H, end: 17 * H } }],
    weights: { moved },
    arrivalStepSeconds: 0,
  };
  // Locations: A, B, then the practitioner's start S and end E.
  const legs = [
    [0, 300, 600, 600],
    [300, 0, 600, 660],
    [600, 600, 0, 900],
    [600, 660, 900, 0],
  ];
  const flat = Float64Array.from(legs.flat());
  return { problem, matrix: { size: 4, durations: flat, distances: Float64Array.from(flat) } };
}

async function solveAndCheck(problem: Problem, matrix?: TravelMatrix, seed = 1) {
  const travel = matrix ?? (await travelMatrixFor(problem));
  const solution = await solve(problem, { travel, maxIterations: 400, seed });
  return { solution, check: checkSolution(problem, solution, travel) };
}

const startOf = (solution: Awaited<ReturnType<typeof solve>>, id: string) =>
  solution.routes.flatMap((route) => route.stops).find((stop) => stop.visitId === id)?.start;

describe('the price of moving a visit from its agreed start', () => {
  it('does not swap two visits 90 minutes to save one minute of travel when moving is priced, and does when it is free', async () => {
    for (const seed of [1, 2, 3]) {
      const priced = swapDay(1);
      const kept = await solveAndCheck(priced.problem, priced.matrix, seed);
      expect(kept.check.errors).toEqual([]);
      expect(kept.solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['A', 'B']);
      expect(startOf(kept.solution, 'A')).toBe(10 * H);
      expect(startOf(kept.solution, 'B')).toBe(11.5 * H);
      expect(kept.solution.objective.moved).toBe(0);
      expect(kept.check.travelTime).toBe(1560);

      const free = swapDay(0);
      const swapped = await solveAndCheck(free.problem, free.matrix, seed);
      expect(swapped.check.errors).toEqual([]);
      expect(swapped.solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['B', 'A']);
      expect(swapped.check.travelTime).toBe(1500);
      expect(swapped.solution.objective.moved).toBe(0);
    }
  });

  it('makes the swap when the travel it saves is worth more than the minutes moved', async () => {
    const { problem, matrix } = swapDay(0.005);
    const { solution, check } = await solveAndCheck(problem, matrix);
    expect(check.errors).toEqual([]);
    expect(solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['B', 'A']);
    expect(solution.objective.moved).toBeGreaterThan(0);
    expect(solution.objective.moved).toBeCloseTo(check.moved, 9);
  });

  it('reports the moved cost the independent checker recomputes, per visit weights included, on days with breaks and windows', async () => {
    const at = (dLat: number, dLng: number) => ({ lat: -27.47 + dLat, lng: 153.02 + dLng });
    for (const seed of [1, 2, 3, 4]) {
      const visits = Array.from({ length: 14 }, (_, i) => ({
        id: `v${i}`,
        location: at(((i * 37) % 17) / 200 - 0.04, ((i * 53) % 19) / 200 - 0.045),
        duration: (30 + (i % 3) * 15) * MIN,
        agreedStart: (8 + ((i * 5) % 9)) * H + (i % 2) * 30 * MIN,
        movedWeight: i % 4 === 0 ? 3 : undefined,
        timeWindows: i % 5 === 0 ? [{ start: (9 + (i % 3)) * H, end: (11 + (i % 3)) * H }] : undefined,
      }));
      const problem: Problem = {
        visits,
        practitioners: [0, 1, 2].map((k) => ({
          id: `p${k}`,
          startLocation: at(0.01 * k, -0.01 * k),
          shift: { start: 8 * H, end: 17 * H },
          break: k < 2 ? { earliestStart: 11.5 * H, latestStart: 13.5 * H, duration: 30 * MIN } : undefined,
        })),
        weights: { moved: 0.5 },
      };
      const { solution, check } = await solveAndCheck(problem, undefined, seed);
      expect(check.errors).toEqual([]);
      expect(solution.unassigned).toEqual([]);
      expect(check.moved).toBeGreaterThan(0);
      expect(solution.objective.moved).toBeCloseTo(check.moved, 6);
    }
  });

  it('moves a visit that must move (a window) the least it needs to', async () => {
    const problem: Problem = {
      visits: [{ id: 'w', location: { lat: -27.47, lng: 153.03 }, duration: 30 * MIN, agreedStart: 10 * H, timeWindows: [{ start: 10.5 * H, end: 12 * H }] }],
      practitioners: [{ id: 'p', startLocation: { lat: -27.47, lng: 153.02 }, shift: { start: 8 * H, end: 17 * H } }],
      weights: { moved: 1 },
      arrivalStepSeconds: 0,
    };
    const { solution, check } = await solveAndCheck(problem);
    expect(check.errors).toEqual([]);
    expect(startOf(solution, 'w')).toBe(10.5 * H);
    expect(solution.objective.moved).toBeCloseTo(30, 9);
  });

  it('moves a visit that must move (a fixed visit at its time) the least it needs to, to the nearer side of it', async () => {
    const place = { lat: -27.47, lng: 153.03 };
    const problem: Problem = {
      visits: [
        // Fixed 10:00–11:00 on the only practitioner; the other visit agreed at 10:40 is served next door after it.
        { id: 'fixed', location: place, duration: H, pinnedPractitionerId: 'p', pinnedStart: 10 * H },
        { id: 'x', location: { lat: -27.47, lng: 153.031 }, duration: 30 * MIN, agreedStart: 10 * H + 40 * MIN },
      ],
      practitioners: [{ id: 'p', startLocation: { lat: -27.47, lng: 153.02 }, shift: { start: 8 * H, end: 17 * H } }],
      weights: { moved: 1 },
      arrivalStepSeconds: 0,
    };
    const matrix = await travelMatrixFor(problem);
    const leg = matrix.durations[0 * matrix.size + 1];
    const { solution, check } = await solveAndCheck(problem, matrix);
    expect(check.errors).toEqual([]);
    expect(solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['fixed', 'x']);
    expect(startOf(solution, 'x')).toBeCloseTo(11 * H + leg, 6);
    expect(solution.objective.moved).toBeCloseTo(20 + leg / 60, 6);
  });

  it('waits for the agreed start when early, if the visits after it keep their windows, and starts early only as the route needs', async () => {
    const near = (dLng: number) => ({ lat: -27.47, lng: 153.02 + dLng });
    const problem: Problem = {
      visits: [
        { id: 'a', location: near(0.01), duration: 30 * MIN, agreedStart: 9 * H, pinnedPractitionerId: 'p' },
        { id: 'b', location: near(0.012), duration: 30 * MIN, agreedStart: 13 * H, pinnedPractitionerId: 'p' },
        // Must start by 13:10: b cannot start at 13:00 and leave time to reach c, so b starts early by what c needs.
        { id: 'c', location: near(0.014), duration: 30 * MIN, agreedStart: 13 * H + 10 * MIN, timeWindows: [{ start: 12 * H, end: 13 * H + 10 * MIN }], pinnedPractitionerId: 'p' },
      ],
      practitioners: [{ id: 'p', startLocation: near(0), shift: { start: 8 * H, end: 17 * H } }],
      weights: { moved: 1, travelCost: 0.001 },
      arrivalStepSeconds: 0,
    };
    const matrix = await travelMatrixFor(problem);
    const { solution, check } = await solveAndCheck(problem, matrix);
    expect(check.errors).toEqual([]);
    const order = solution.routes[0].stops.map((stop) => stop.visitId);
    expect(order).toEqual(['a', 'b', 'c']);
    expect(startOf(solution, 'a')).toBe(9 * H);
    const bc = matrix.durations[1 * matrix.size + 2];
    // c at the end of its window; b as late as c allows (starting early only as the route needs it).
    expect(startOf(solution, 'c')).toBeCloseTo(13 * H + 10 * MIN, 6);
    expect(startOf(solution, 'b')).toBeCloseTo(13 * H + 10 * MIN - bc - 30 * MIN, 6);
  });

  it('gives a visit to the practitioner who can keep its agreed time over a nearer one who cannot, priced from an empty route', async () => {
    const problem: Problem = {
      visits: [{ id: 'v', location: { lat: -27.47, lng: 153.03 }, duration: 30 * MIN, agreedStart: 9 * H }],
      practitioners: [
        { id: 'near-late', startLocation: { lat: -27.47, lng: 153.031 }, shift: { start: 12 * H, end: 17 * H } },
        { id: 'far-early', startLocation: { lat: -27.47, lng: 153.08 }, shift: { start: 8 * H, end: 17 * H } },
      ],
      weights: { moved: 1 },
      arrivalStepSeconds: 0,
    };
    // The first plan (one iteration): the insertion itself is priced, not only found out by later iterations.
    const travel = await travelMatrixFor(problem);
    const solution = await solve(problem, { travel, maxIterations: 1, seed: 1 });
    const check = checkSolution(problem, solution, travel);
    expect(check.errors).toEqual([]);
    expect(solution.routes.find((route) => route.stops.length)?.practitionerId).toBe('far-early');
    expect(startOf(solution, 'v')).toBe(9 * H);
    expect(solution.objective.moved).toBe(0);
  });

  it('keeps arrivals on the step: a visit the route pulls before its agreed start starts a step earlier, not off it', async () => {
    // A (agreed 10:00, 30 min) then B, which must start at 10:32 exactly, 5 minutes away: A can start at 09:57 at the
    // latest; the client is told 09:55, not 09:57.
    const { problem, matrix } = swapDay(1);
    problem.visits[1] = { ...problem.visits[1], agreedStart: undefined, timeWindows: [{ start: 10 * H + 32 * MIN, end: 10 * H + 32 * MIN }] };
    problem.arrivalStepSeconds = 300;
    const { solution, check } = await solveAndCheck(problem, matrix);
    expect(check.errors).toEqual([]);
    expect(solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['A', 'B']);
    expect(startOf(solution, 'A')).toBe(9 * H + 55 * MIN);
    expect(solution.objective.moved).toBeCloseTo(check.moved, 9);
  });

  it('costs nothing and changes nothing without agreed starts', async () => {
    const { problem, matrix } = swapDay(1);
    const plain = { ...problem, visits: problem.visits.map(({ agreedStart: _agreed, ...visit }) => visit) };
    const { solution, check } = await solveAndCheck(plain, matrix);
    expect(check.errors).toEqual([]);
    expect(solution.objective.moved).toBe(0);
    expect(check.travelTime).toBe(1500);
  });

  it('validates agreedStart, movedWeight and weights.moved', () => {
    const { problem } = swapDay(1);
    const bad: Problem = {
      ...problem,
      visits: [{ ...problem.visits[0], agreedStart: Number.NaN }, { ...problem.visits[1], movedWeight: -1 }],
      weights: { moved: -2 },
    };
    expect(validateProblem(bad).map((error) => error.field)).toEqual(['visits[0].agreedStart', 'visits[1].movedWeight', 'weights.moved']);
  });
});
