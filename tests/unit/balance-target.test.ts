// Balance with a target (Problem.balanceTargetSeconds, the mean working day as it is): days even out. Without one, the
// term Σ (working hours)² also rewards a shorter total (less waiting), and on a generated day with ±30-minute windows
// the spread of working time got wider than the booking's.
import { describe, expect, it } from 'vitest';
import { checkSolution, meanWorkingSeconds, planOf, solve, travelMatrixFor, type Problem, type Route } from '../../server/src/optimizer';
import { bookedSolution, generateHomecareDay } from '../../bench/lib/homecare';

const spreadHours = (routes: Route[]) => {
  const hours = routes.filter((route) => route.stops.length).map((route) => (route.arriveEnd - route.departStart) / 3600);
  return Math.max(...hours) - Math.min(...hours);
};

describe('balance towards a target', () => {
  it('narrows the spread of working days where balance without one widened it', async () => {
    const day = generateHomecareDay(40, 320, 7);
    const booked = new Map(day.booked.flatMap((route) => route.stops.map((stop) => [stop.visitId, stop.start] as const)));
    // Each visit within 30 minutes of its booked start, as the product's tolerance keeps it; balance weighed strongly.
    const problem: Problem = {
      ...day.problem,
      weights: { balance: 40 },
      visits: day.problem.visits.map((visit) => ({ ...visit, timeWindows: [{ start: booked.get(visit.id)! - 1800, end: booked.get(visit.id)! + 1800 }] })),
    };
    const travel = await travelMatrixFor(problem);
    const startFrom = planOf(bookedSolution(day));
    const withTarget = { ...problem, balanceTargetSeconds: meanWorkingSeconds(problem, travel, startFrom) };
    const without = await solve(problem, { maxIterations: 3000, seed: 1, travel, startFrom });
    const towardsTarget = await solve(withTarget, { maxIterations: 3000, seed: 1, travel, startFrom });

    expect(checkSolution(withTarget, towardsTarget, travel).errors).toEqual([]);
    expect(towardsTarget.unassigned).toEqual([]);
    expect(spreadHours(towardsTarget.routes)).toBeLessThan(spreadHours(day.booked));
    expect(spreadHours(without.routes)).toBeGreaterThan(spreadHours(day.booked));
  });
});
