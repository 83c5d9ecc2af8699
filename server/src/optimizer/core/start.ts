import type { Problem, Solution, StartRoute, TravelMatrix } from '../types';
import { buildModel, type CoreModel } from './model';
import { RouteState } from './routes';

/**
 * A start plan in the model's indices, every route feasible: each practitioner's visits are taken in the plan's order
 * and a visit that would break the route so far (its window, the travel to it, the shift, the break, a limit), that
 * the practitioner may not do, or that appears twice, is left out for the search to place.
 */
export function feasibleStart(problem: Problem, m: CoreModel, start: readonly StartRoute[]): number[][] {
  return startState(problem, m, start).routes;
}

function startState(problem: Problem, m: CoreModel, start: readonly StartRoute[]): { routes: number[][]; rs: RouteState } {
  const visitIndex = new Map(problem.visits.map((visit, index) => [visit.id, index]));
  const vehicleIndex = new Map(problem.practitioners.map((practitioner, index) => [practitioner.id, index]));
  const routes: number[][] = Array.from({ length: m.vehicles }, () => []);
  const taken = new Uint8Array(m.n);
  const rs = new RouteState(m);
  for (const { practitionerId, visitIds } of start) {
    const r = vehicleIndex.get(practitionerId);
    if (r === undefined) continue;
    const route = routes[r];
    for (const id of visitIds) {
      const c = visitIndex.get(id);
      if (c === undefined || taken[c] || !Number.isFinite(m.extra[c * m.vehicles + r])) continue;
      route.push(c);
      rs.setRoute(r, route);
      if (rs.feasible(r)) taken[c] = 1;
      else route.pop();
    }
    rs.setRoute(r, route);
  }
  return { routes, rs };
}

/**
 * The plan's working time per practitioner (seconds, each route's shortest span from leaving the start to reaching the
 * end, as the search measures it; a practitioner with no visits works none): a balance target
 * (Problem.balanceTargetSeconds) from the day as it is.
 */
export function meanWorkingSeconds(problem: Problem, matrix: TravelMatrix, plan: readonly StartRoute[]): number {
  const m = buildModel(problem, matrix);
  const { routes, rs } = startState(problem, m, plan);
  const total = routes.reduce((sum, route, r) => sum + (route.length ? rs.duration(r) : 0), 0);
  return m.vehicles ? total / m.vehicles : 0;
}

/** A solution's routes as a plan to start from. */
export const planOf = (solution: Solution): StartRoute[] =>
  solution.routes.map((route) => ({ practitionerId: route.practitionerId, visitIds: route.stops.map((stop) => stop.visitId) }));
