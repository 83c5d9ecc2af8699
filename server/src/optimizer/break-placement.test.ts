import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkSolution } from './checker';
import { buildModel } from './core/model';
import { RouteState, simulateCost, type Schedule } from './core/routes';
import { buildRoutes, objectiveOf } from './output';
import { solve } from './solve';
import type { Problem, Solution, TravelMatrix } from './types';

/**
 * Issue 27, "breaks": a route is evaluated with the practitioner's break at its best feasible position. Small routes
 * of one practitioner with time windows (some with two, some soft) and a break window are generated; a brute force
 * written here, sharing no code with the engine, takes the break at each position in turn (at the start location before
 * the first visit, between two visits, after the last), as early as it can there, with the practitioner leaving just in
 * time for the first visit. Whenever one position is feasible the evaluation must find a feasible schedule, no worse
 * than any position's (lateness and overtime priced, then waiting, then route end), the checker must accept it,
 * and the search's route state must agree on feasibility.
 */

const MIN = 60;
const EPS = 1e-6;
const LATE_COST = 5 / 60;
const OT_COST = 2 / 60;

interface Gen {
  shiftStart: number;
  shiftLength: number;
  overtime: number;
  breakE: number;
  breakSpan: number;
  breakDur: number;
  visits: { at: number; width: number; second: number | null; service: number; late: number | null }[];
  legs: number[];
}

const genCase: fc.Arbitrary<Gen> = fc.integer({ min: 1, max: 8 }).chain((n) =>
  fc.record({
    shiftStart: fc.integer({ min: 6 * 4, max: 10 * 4 }).map((q) => q * 15 * MIN),
    shiftLength: fc.integer({ min: 5 * 4, max: 11 * 4 }).map((q) => q * 15 * MIN),
    overtime: fc.constantFrom(0, 0, 15, 60).map((m) => m * MIN),
    // After the shift start, so that the break falls among the visits.
    breakE: fc.integer({ min: 1 * 4, max: 6 * 4 }).map((q) => q * 15 * MIN),
    breakSpan: fc.integer({ min: 0, max: 8 }).map((q) => q * 15 * MIN),
    breakDur: fc.constantFrom(15, 30, 30, 45, 60).map((m) => m * MIN),
    visits: fc.array(
      fc.record({
        // Window starts along the day (each after the previous one's by this much), so that many routes are feasible
        // with the break somewhere.
        at: fc.integer({ min: 0, max: 24 }).map((q) => q * 5 * MIN),
        width: fc.constantFrom(0, 10, 30, 60, 120).map((m) => m * MIN),
        second: fc.option(fc.integer({ min: 30, max: 240 }).map((m) => m * MIN), { nil: null, freq: 4 }),
        service: fc.constantFrom(15, 30, 45, 60, 90).map((m) => m * MIN),
        late: fc.option(fc.constantFrom(0, 15, 60), { nil: null, freq: 3 }),
      }),
      { minLength: n, maxLength: n },
    ),
    legs: fc.array(fc.integer({ min: 0, max: 30 }).map((m) => m * MIN), { minLength: (n + 2) ** 2, maxLength: (n + 2) ** 2 }),
  }),
);

function toProblem(g: Gen): { problem: Problem; matrix: TravelMatrix } {
  // Visits in window order (the route), as a plan would mostly have them: each window opens `at` after the previous
  // one's earliest end of service.
  let free = g.shiftStart;
  const visits = g.visits.map((v, i) => {
    const opens = free + v.at;
    free = opens + v.service;
    return {
      id: `v${i}`,
      location: { lat: 0, lng: i },
      duration: v.service,
      timeWindows: [
        { start: opens, end: opens + v.width },
        ...(v.second === null ? [] : [{ start: opens + v.width + v.second, end: opens + v.width + v.second + v.width }]),
      ],
      ...(v.late === null ? {} : { allowLate: true, maxLatenessMinutes: v.late }),
    };
  });
  const size = visits.length + 2;
  const durations = new Float64Array(size * size);
  for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) durations[i * size + j] = i === j ? 0 : g.legs[i * size + j];
  const problem: Problem = {
    visits,
    practitioners: [
      {
        id: 'p',
        startLocation: { lat: 0, lng: -1 },
        shift: { start: g.shiftStart, end: g.shiftStart + g.shiftLength },
        maxOvertimeMinutes: g.overtime / MIN,
        break: { earliestStart: g.shiftStart + g.breakE, latestStart: g.shiftStart + g.breakE + g.breakSpan, duration: g.breakDur },
      },
    ],
    arrivalStepSeconds: 0,
  };
  return { problem, matrix: { size, durations, distances: durations } };
}

interface Outcome {
  feasible: boolean;
  cost: number;
  /** Working time (leaving the start to arriving at the end) less the break when it is taken after leaving. */
  wait: number;
  arriveEnd: number;
}

/** The route with the break after position k (0 = at the start, before the first visit), as early as it can be there. */
function withBreakAt(problem: Problem, matrix: TravelMatrix, k: number): Outcome {
  const none: Outcome = { feasible: false, cost: Infinity, wait: Infinity, arriveEnd: Infinity };
  const p = problem.practitioners[0];
  const brk = p.break!;
  const n = problem.visits.length;
  const leg = (a: number, b: number) => matrix.durations[a * matrix.size + b];
  const startNode = n;
  const endNode = n + 1;
  /** Earliest start and lateness of visit i reached at `arrival`, null when too late. */
  const startAt = (i: number, arrival: number): { start: number; late: number } | null => {
    const visit = problem.visits[i];
    for (const w of visit.timeWindows!) if (arrival <= w.end) return { start: Math.max(arrival, w.start), late: 0 };
    const lastEnd = Math.max(...visit.timeWindows!.map((w) => w.end));
    if (visit.allowLate && arrival <= lastEnd + 60 * (visit.maxLatenessMinutes ?? 60)) return { start: arrival, late: arrival - lastEnd };
    return null;
  };
  let ready = p.shift.start;
  let cost = 0;
  let departStart = p.shift.start;
  let prev = startNode;
  for (let i = 0; i <= n; i++) {
    if (i === k) {
      const breakStart = Math.max(ready, brk.earliestStart);
      if (breakStart > brk.latestStart) return none;
      ready = breakStart + brk.duration;
    }
    const node = i < n ? i : endNode;
    const arrival = ready + leg(prev, node);
    if (i === n) {
      const latest = p.shift.end + 60 * (p.maxOvertimeMinutes ?? 0);
      if (arrival > latest) return none;
      cost += OT_COST * Math.max(0, arrival - p.shift.end);
      return { feasible: true, cost, wait: arrival - departStart - (k > 0 ? brk.duration : 0), arriveEnd: arrival };
    }
    const s = startAt(i, arrival);
    if (!s) return none;
    // Leave just in time for the first visit (after the break when it is taken first).
    if (i === 0) departStart = s.start - leg(prev, node);
    cost += LATE_COST * s.late;
    ready = s.start + problem.visits[i].duration;
    prev = node;
  }
  throw new Error('unreachable');
}

/**
 * a is worse than b: a higher priced cost (lateness, overtime), else more waiting (the working time less the break when
 * taken after leaving: travel and service are the same at every position), else a later end.
 */
function worse(a: Outcome, b: Outcome): boolean {
  const tol = (x: number, y: number) => EPS * Math.max(1, Math.abs(x), Math.abs(y));
  if (Math.abs(a.cost - b.cost) > tol(a.cost, b.cost)) return a.cost > b.cost;
  if (Math.abs(a.wait - b.wait) > tol(a.wait, b.wait)) return a.wait > b.wait;
  return a.arriveEnd > b.arriveEnd + tol(a.arriveEnd, b.arriveEnd);
}

const newSchedule = (): Schedule => ({ departStart: 0, arrival: [], start: [], lateness: [], overtime: 0, breakAfter: -1, breakStart: 0, arriveEnd: 0 });

/** The evaluation of the generated route and the brute force's outcome at every position. */
function evaluate(g: Gen) {
  const { problem, matrix } = toProblem(g);
  const n = problem.visits.length;
  const m = buildModel(problem, matrix);
  const visits = problem.visits.map((_, i) => i);
  const seq = [m.startNode[0], ...visits, m.endNode[0]];
  const schedule = newSchedule();
  const cost = simulateCost(m, 0, seq, seq.length, schedule);
  const span = schedule.arriveEnd - schedule.departStart;
  const found: Outcome = { feasible: cost !== Infinity, cost, wait: span - (schedule.breakAfter > 0 ? g.breakDur : 0), arriveEnd: schedule.arriveEnd };
  const positions = Array.from({ length: n + 1 }, (_, k) => withBreakAt(problem, matrix, k));
  return { problem, matrix, m, visits, schedule, found, positions, anyFeasible: positions.some((o) => o.feasible) };
}

const RUNS = { seed: 27, numRuns: 10000 };

describe('break placement', () => {
  it('finds a feasible break position whenever there is one, priced no higher than any other, and the checker accepts it', () => {
    fc.assert(
      fc.property(genCase, (g) => {
        const { problem, matrix, m, visits, found, positions, anyFeasible } = evaluate(g);
        expect(found.feasible, 'feasible iff some break position is').toBe(anyFeasible);
        // The search's route state agrees with the evaluation.
        const rs = new RouteState(m);
        rs.setRoute(0, visits);
        expect(rs.feasible(0)).toBe(anyFeasible);
        if (!anyFeasible) return;
        for (const [k, o] of positions.entries()) {
          if (o.feasible) expect(found.cost, `position ${k} ${JSON.stringify(o)}`).toBeLessThanOrEqual(o.cost + EPS);
        }
        // The independent checker accepts the planned route with its break.
        const planned = buildRoutes(problem, m, [visits]);
        const solution: Solution = {
          routes: planned,
          unassigned: [],
          objective: objectiveOf(m, [visits], [], planned),
          stats: { iterations: 0, elapsedMs: 0, seed: 1, stoppedBy: 'iterations' },
        };
        expect(checkSolution(problem, solution, matrix).errors).toEqual([]);
      }),
      RUNS,
    );
  }, 30_000);

  it('takes the break where it costs least, then waits least, then ends first, with the times of that position', () => {
    fc.assert(
      fc.property(genCase, (g) => {
        const { schedule, found, positions, anyFeasible } = evaluate(g);
        if (!anyFeasible) return;
        const at = positions[schedule.breakAfter];
        expect(at.feasible, `break reported after position ${schedule.breakAfter}`).toBe(true);
        expect(worse(found, at) || worse(at, found), `position ${schedule.breakAfter}: ${JSON.stringify(at)} vs ${JSON.stringify(found)}`).toBe(false);
        for (const [k, o] of positions.entries()) {
          if (o.feasible) expect(worse(found, o), `position ${k} ${JSON.stringify(o)} beats ${JSON.stringify(found)}`).toBe(false);
        }
      }),
      RUNS,
    );
  }, 30_000);
});

describe('a route a removal leaves without a place for its break', () => {
  it('is never kept by the search: the plan passes the checker', async () => {
    const H = 3600;
    // A (9:00–9:30), X (10:00–10:30) next to B (12:05–12:10, 90 minutes), on p1 whose 30-minute break starts 11:30–13:30.
    // With X, p1 takes the break after X, a minute from B; without X it can take it nowhere (after A it makes B late,
    // after B is past 13:30). Giving X to p2, whose day starts next to it, saves 29 minutes of travel.
    const problem: Problem = {
      visits: [
        { id: 'A', location: { lat: 0, lng: 0 }, duration: 30 * 60, timeWindows: [{ start: 9 * H, end: 9.5 * H }], pinnedPractitionerId: 'p1' },
        { id: 'X', location: { lat: 0, lng: 1 }, duration: 30 * 60, timeWindows: [{ start: 10 * H, end: 10.5 * H }] },
        { id: 'B', location: { lat: 0, lng: 2 }, duration: 90 * 60, timeWindows: [{ start: 12 * H + 300, end: 12 * H + 600 }], pinnedPractitionerId: 'p1' },
      ],
      practitioners: [
        { id: 'p1', startLocation: { lat: 1, lng: 0 }, shift: { start: 8 * H, end: 17 * H }, break: { earliestStart: 11.5 * H, latestStart: 13.5 * H, duration: 1800 } },
        { id: 'p2', startLocation: { lat: 1, lng: 1 }, shift: { start: 8 * H, end: 17 * H } },
      ],
      arrivalStepSeconds: 0,
    };
    // Locations: A, X, B, p1's start and end, p2's start and end (seconds, symmetric).
    const legs = [
      [0, 3600, 1800, 600, 600, 3600, 3600],
      [3600, 0, 60, 3600, 3600, 60, 60],
      [1800, 60, 0, 600, 600, 120, 120],
      [600, 3600, 600, 0, 0, 3600, 3600],
      [600, 3600, 600, 0, 0, 3600, 3600],
      [3600, 60, 120, 3600, 3600, 0, 0],
      [3600, 60, 120, 3600, 3600, 0, 0],
    ];
    const flat = Float64Array.from(legs.flat());
    const matrix: TravelMatrix = { size: 7, durations: flat, distances: Float64Array.from(flat) };
    for (const seed of [1, 2, 3]) {
      const solution = await solve(problem, { travel: matrix, maxIterations: 300, seed });
      expect(checkSolution(problem, solution, matrix).errors).toEqual([]);
      expect(solution.unassigned).toEqual([]);
      expect(solution.routes[0].stops.map((stop) => stop.visitId)).toEqual(['A', 'X', 'B']);
    }
  });
});
