import { describe, expect, it } from 'vitest';
import { parseSolomon } from '../../../bench/lib/solomon';
import { checkSolution } from './checker';
import { solve, travelMatrixFor } from './solve';
import type { Problem, Solution } from './types';

const H = 3600;
const at = (dLat: number, dLng: number) => ({ lat: -27.47 + dLat, lng: 153.02 + dLng });
const problem: Problem = {
  visits: [
    { id: 'a', location: at(0.02, 0.01), duration: 1800, timeWindows: [{ start: 9 * H, end: 10 * H }], requiredSkill: 'x' },
    { id: 'b', location: at(0.03, 0.02), duration: 1800, timeWindows: [{ start: 11 * H, end: 12 * H }], demand: 2 },
    { id: 'c', location: at(-0.02, 0.01), duration: 1800 },
  ],
  practitioners: [
    { id: 'p1', startLocation: at(0, 0), shift: { start: 8 * H, end: 17 * H }, skills: ['x'], capacity: 5, break: { earliestStart: 12 * H, latestStart: 14 * H, duration: 1800 } },
    { id: 'p2', startLocation: at(0.01, 0.01), shift: { start: 8 * H, end: 17 * H } },
  ],
};

async function solved() {
  const matrix = await travelMatrixFor(problem);
  const solution = await solve(problem, { travel: matrix, maxIterations: 200, seed: 1 });
  return { matrix, solution };
}
const clone = (s: Solution): Solution => structuredClone(s);
const stop = (s: Solution, id: string) => s.routes.flatMap((r) => r.stops).find((x) => x.visitId === id)!;

describe('checkSolution', () => {
  it('accepts the solver output and recomputes travel from the matrix', async () => {
    const { matrix, solution } = await solved();
    const check = checkSolution(problem, solution, matrix);
    expect(check.errors).toEqual([]);
    const reported = solution.routes.reduce((a, r) => a + r.travelTime, 0);
    expect(check.travelTime).toBeCloseTo(reported, 6);
  });

  it('catches a start outside the window', async () => {
    const { matrix, solution } = await solved();
    const s = clone(solution);
    const st = stop(s, 'a');
    st.start = 10 * H + 60;
    st.departure = st.start + 1800;
    expect(checkSolution(problem, s, matrix).errors.join()).toMatch(/outside every time window/);
  });

  it('catches an arrival faster than the travel time', async () => {
    const { matrix, solution } = await solved();
    const s = clone(solution);
    const route = s.routes.find((r) => r.stops.length)!;
    route.stops[0].arrival = route.departStart;
    expect(checkSolution(problem, s, matrix).errors.join()).toMatch(/cannot arrive before/);
  });

  it('catches missing, duplicated and wrongly skilled visits', async () => {
    const { matrix, solution } = await solved();
    const s = clone(solution);
    const withA = s.routes.find((r) => r.stops.some((x) => x.visitId === 'a'))!;
    const other = s.routes.find((r) => r !== withA)!;
    other.stops.push({ ...stop(s, 'a') });
    const errs = checkSolution(problem, s, matrix).errors.join('\n');
    expect(errs).toMatch(/already on/);
    if (other.practitionerId === 'p2') expect(errs).toMatch(/lacks skill x/);
    const t = clone(solution);
    for (const r of t.routes) r.stops = r.stops.filter((x) => x.visitId !== 'c');
    expect(checkSolution(problem, t, matrix).errors.join()).toMatch(/neither routed nor reported unassigned/);
  });

  it('catches shift overruns, capacity and a misplaced break', async () => {
    const { matrix, solution } = await solved();
    const s = clone(solution);
    const r = s.routes.find((x) => x.practitionerId === 'p1')!;
    r.arriveEnd = 18 * H;
    const p: Problem = structuredClone(problem);
    p.practitioners[0].capacity = 0;
    p.visits[0].demand = 1;
    const errs = checkSolution(p, s, matrix).errors.join('\n');
    expect(errs).toMatch(/after the shift ends/);
    expect(errs).toMatch(/exceeds capacity/);
    if (r.break) {
      r.break.start = 15 * H;
      r.break.end = 15.5 * H;
      expect(checkSolution(problem, s, matrix).errors.join()).toMatch(/break starts at/);
    }
  });
});

describe('checkSolution: soft windows and overtime', () => {
  const soft = (): Problem => ({
    arrivalStepSeconds: 0,
    visits: [{ id: 'far', location: at(0.1, 0), duration: 1800, timeWindows: [{ start: 8 * H, end: 8 * H + 300 }], allowLate: true }],
    practitioners: [{ id: 'p1', startLocation: at(0, 0), shift: { start: 8 * H, end: 9 * H }, maxOvertimeMinutes: 60 }],
  });

  it('accepts priced lateness and overtime, and catches them where not allowed or misreported', async () => {
    const p = soft();
    const matrix = await travelMatrixFor(p);
    const solution = await solve(p, { travel: matrix, maxIterations: 100, seed: 1 });
    const check = checkSolution(p, solution, matrix);
    expect(check.errors).toEqual([]);
    expect(check.lateness).toBeGreaterThan(0);
    expect(check.overtime).toBeGreaterThan(0);

    const hard = structuredClone(p);
    delete hard.visits[0].allowLate;
    hard.practitioners[0].maxOvertimeMinutes = 0;
    const errs = checkSolution(hard, solution, matrix).errors.join('\n');
    expect(errs).toMatch(/outside every time window/);
    expect(errs).toMatch(/after the shift ends/);

    const bounded = structuredClone(p);
    bounded.visits[0].maxLatenessMinutes = 1;
    expect(checkSolution(bounded, solution, matrix).errors.join()).toMatch(/later than the allowed/);

    const s = clone(solution);
    s.routes[0].stops[0].lateness = 0;
    s.routes[0].overtime = 0;
    s.objective.lateness = 0;
    const wrong = checkSolution(p, s, matrix).errors.join('\n');
    expect(wrong).toMatch(/reports lateness/);
    expect(wrong).toMatch(/reports overtime/);
    expect(wrong).toMatch(/objective: lateness/);
  });
});

describe('Solomon instances', () => {
  const text = `C1TINY

VEHICLE
NUMBER     CAPACITY
  3         20

CUSTOMER
CUST NO.  XCOORD.   YCOORD.    DEMAND   READY TIME  DUE DATE   SERVICE   TIME

    0      0          0          0          0       1000          0
    1      10         0          5         10        100         10
    2      10         10         5          0        200         10
    3      0          10         15         0        300         10
`;

  it('parses the format and solves it to the obvious optimum', async () => {
    const inst = parseSolomon(text, 'tiny');
    expect(inst.fleet).toBe(3);
    expect(inst.problem.visits.map((v) => v.timeWindows![0])).toEqual([
      { start: 10, end: 100 },
      { start: 0, end: 200 },
      { start: 0, end: 300 },
    ]);
    const matrix = await travelMatrixFor(inst.problem);
    const sol = await solve(inst.problem, { travel: matrix, maxIterations: 500 });
    expect(checkSolution(inst.problem, sol, matrix).errors).toEqual([]);
    // Capacity 20 splits 3 (demand 15) from 1+2: 0-1-2-0 costs 10+10+√200, 0-3-0 costs 20.
    expect(sol.objective.travelDistance).toBeCloseTo(40 + Math.sqrt(200), 9);
  });
});
