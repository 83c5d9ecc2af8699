import { buildModel } from './core/model';
import { RouteState, simulate } from './core/routes';
import { buildRoutes } from './output';
import type { Problem, Route, TravelMatrix } from './types';
import { assertValidProblem } from './validate';

/** Each practitioner's visits as they are, in visiting order (practitioners not listed have none). */
export interface CurrentRoute {
  practitionerId: string;
  visitIds: string[];
}

export interface Insertion {
  practitionerId: string;
  /** Where the visit goes among that practitioner's visits: 0 = first, visitIds.length = last. */
  position: number;
  /** The practitioner's day with the visit in it, timed as the optimiser times a route (arrivals on the step). */
  route: Route;
  /** What it adds to the objective (travel and distance costs, continuity, lateness, overtime), in its units. */
  cost: number;
  /** Travel time (seconds) and distance (metres) it adds to that practitioner's day. */
  addedTravelTime: number;
  addedTravelDistance: number;
}

/**
 * The optimiser's cheapest insertion of one visit into the practitioners' days as they are: every position of every
 * practitioner who may take it (skills, pins) is priced with the search's own insertion delta (travel and distance
 * costs, lateness and overtime where priced) plus the continuity cost, checked against windows, shift, break,
 * capacity and limits, and confirmed by exact simulation. The other visits are not moved: give them `pinnedStart`
 * (and their practitioner) to keep their times. Returns null when the visit fits nowhere.
 */
export function cheapestInsertion(problem: Problem, matrix: TravelMatrix, current: CurrentRoute[], visitId: string): Insertion | null {
  assertValidProblem(problem);
  const m = buildModel(problem, matrix);
  const index = new Map(problem.visits.map((visit, i) => [visit.id, i]));
  const vehicleOf = new Map(problem.practitioners.map((practitioner, v) => [practitioner.id, v]));
  const c = index.get(visitId);
  if (c === undefined) throw new Error(`cheapestInsertion: no visit ${visitId} in the problem`);
  const rs = new RouteState(m);
  const sequences: number[][] = problem.practitioners.map(() => []);
  for (const route of current) {
    const v = vehicleOf.get(route.practitionerId);
    if (v === undefined) throw new Error(`cheapestInsertion: no practitioner ${route.practitionerId} in the problem`);
    sequences[v] = route.visitIds.map((id) => {
      const node = index.get(id);
      if (node === undefined || id === visitId) throw new Error(`cheapestInsertion: visit ${id} cannot be on a current route`);
      return node;
    });
    rs.setRoute(v, sequences[v]);
  }

  const V = m.vehicles;
  let best: { v: number; position: number; cost: number } | null = null;
  for (let v = 0; v < V; v++) {
    const extra = m.extra[c * V + v];
    if (extra === Infinity) continue;
    for (let position = 0; position <= sequences[v].length; position++) {
      const delta = rs.insertionDelta(v, position, c, Infinity);
      if (delta === Infinity || (best && delta + extra >= best.cost - 1e-9)) continue;
      // The segment check does not see a day that was already infeasible before the visit: simulate the whole day.
      const seq = [m.startNode[v], ...sequences[v].slice(0, position), c, ...sequences[v].slice(position), m.endNode[v]];
      if (!simulate(m, v, seq, seq.length, null)) continue;
      best = { v, position, cost: delta + extra };
    }
  }
  if (!best) return null;

  const visits = [...sequences[best.v]];
  visits.splice(best.position, 0, c);
  const planned = buildRoutes(problem, m, problem.practitioners.map((_, v) => (v === best.v ? visits : [])))[best.v];
  const before = best.position === 0 ? m.startNode[best.v] : visits[best.position - 1];
  const after = best.position === visits.length - 1 ? m.endNode[best.v] : visits[best.position + 1];
  const leg = (from: number, to: number) => from * m.size + to;
  return {
    practitionerId: problem.practitioners[best.v].id,
    position: best.position,
    route: planned,
    cost: best.cost,
    addedTravelTime: m.dur[leg(before, c)] + m.dur[leg(c, after)] - m.dur[leg(before, after)],
    addedTravelDistance: m.dist[leg(before, c)] + m.dist[leg(c, after)] - m.dist[leg(before, after)],
  };
}
