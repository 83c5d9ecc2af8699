import type { Location, Problem, TravelMatrix } from '../types';

export function emptyMatrix(size: number): TravelMatrix {
  return { size, durations: new Float64Array(size * size), distances: new Float64Array(size * size) };
}

/**
 * The locations a problem's travel matrix is indexed by: visits in order, then for each
 * practitioner its start and its end location.
 */
export function problemLocations(problem: Problem): Location[] {
  const locs: Location[] = problem.visits.map((v) => v.location);
  for (const p of problem.practitioners) {
    locs.push(p.startLocation, p.endLocation ?? p.startLocation);
  }
  return locs;
}

/** Builds a matrix by calling `leg` for every ordered pair of distinct locations. */
export function matrixFromLegs(
  locations: Location[],
  leg: (a: Location, b: Location) => { duration: number; distance: number },
): TravelMatrix {
  const m = emptyMatrix(locations.length);
  for (let i = 0; i < locations.length; i++) {
    for (let j = 0; j < locations.length; j++) {
      if (i === j) continue;
      const l = leg(locations[i], locations[j]);
      m.durations[i * m.size + j] = l.duration;
      m.distances[i * m.size + j] = l.distance;
    }
  }
  return m;
}
