// A visit's excluded practitioners (the client asked not to be visited by them) are a hard rule: the search, the
// insertion and the independent checker all keep the visit off them.
import { describe, expect, it } from 'vitest';
import { checkSolution } from './checker';
import { cheapestInsertion } from './insertion';
import { solve, travelMatrixFor } from './solve';
import type { Practitioner, Problem } from './types';
import { validateProblem } from './validate';

const H = 3600;
const at = (dLat: number, dLng: number) => ({ lat: -27.47 + dLat, lng: 153.02 + dLng });
const worker = (id: string, start = at(0, 0)): Practitioner => ({ id, startLocation: start, shift: { start: 8 * H, end: 17 * H } });

/** p-near starts next door to the client; p-far an hour's drive away. */
const problem = (excluded?: string[]): Problem => ({
  visits: [{ id: 'dorothy', location: at(0.001, 0.001), duration: 1800, excludedPractitionerIds: excluded }],
  practitioners: [worker('p-near', at(0, 0)), worker('p-far', at(0.4, 0.4))],
});

describe('excluded practitioners', () => {
  it('never gives the visit to an excluded practitioner, even when theirs is the only cheap route', async () => {
    const matrix = await travelMatrixFor(problem());
    const free = await solve(problem(), { travel: matrix, maxIterations: 200, seed: 1 });
    expect(free.routes.find((route) => route.stops.length)?.practitionerId).toBe('p-near');

    const excluded = await solve(problem(['p-near']), { travel: matrix, maxIterations: 200, seed: 1 });
    expect(excluded.routes.find((route) => route.stops.length)?.practitionerId).toBe('p-far');
    expect(checkSolution(problem(['p-near']), excluded, matrix).errors).toEqual([]);
  });

  it('keeps visits off an excluded practitioner who has an identical twin', async () => {
    // Twins (same start, shift and skills) are interchangeable to the search unless a visit names one of them.
    const visits = Array.from({ length: 12 }, (_, i) => ({
      id: `v${i}`, location: at(0.01 * (i % 4), 0.01 * Math.floor(i / 4)), duration: 1800, excludedPractitionerIds: i % 2 ? ['twin-a'] : ['twin-b'],
    }));
    const twins: Problem = { visits, practitioners: [worker('twin-a'), worker('twin-b')] };
    const matrix = await travelMatrixFor(twins);
    for (const seed of [1, 2, 3]) {
      const solution = await solve(twins, { travel: matrix, maxIterations: 300, seed });
      expect(checkSolution(twins, solution, matrix).errors).toEqual([]);
      for (const route of solution.routes) {
        for (const stop of route.stops) expect(visits.find((visit) => visit.id === stop.visitId)!.excludedPractitionerIds).not.toContain(route.practitionerId);
      }
      expect(solution.unassigned).toEqual([]);
    }
  });

  it('leaves the visit unassigned, saying why, when every practitioner is excluded', async () => {
    const all = problem(['p-near', 'p-far']);
    const solution = await solve(all, { travel: await travelMatrixFor(all), maxIterations: 50, seed: 1 });
    expect(solution.unassigned).toEqual([
      { visitId: 'dorothy', reason: 'no-practitioner-with-skill', message: 'every practitioner who could do it is excluded from it' },
    ]);
  });

  it('the checker catches a visit given to an excluded practitioner', async () => {
    const matrix = await travelMatrixFor(problem());
    const solution = await solve(problem(), { travel: matrix, maxIterations: 200, seed: 1 });
    expect(checkSolution(problem(), solution, matrix).errors).toEqual([]);
    expect(checkSolution(problem(['p-near']), solution, matrix).errors).toEqual(['route p-near, stop 0 (dorothy): practitioner p-near is excluded from this visit']);
  });

  it('the cheapest insertion skips an excluded practitioner', async () => {
    const matrix = await travelMatrixFor(problem());
    const current = [{ practitionerId: 'p-near', visitIds: [] }, { practitionerId: 'p-far', visitIds: [] }];
    expect(cheapestInsertion(problem(), matrix, current, 'dorothy')?.practitionerId).toBe('p-near');
    expect(cheapestInsertion(problem(['p-near']), matrix, current, 'dorothy')?.practitionerId).toBe('p-far');
    expect(cheapestInsertion(problem(['p-near', 'p-far']), matrix, current, 'dorothy')).toBeNull();
  });

  it('validation names an unknown excluded practitioner and a visit pinned to one it excludes', () => {
    const unknown = problem(['nobody']);
    expect(validateProblem(unknown)).toEqual([{ field: 'visits[0].excludedPractitionerIds[0]', message: 'unknown practitioner "nobody"' }]);
    const pinned = problem(['p-near']);
    pinned.visits[0].pinnedPractitionerId = 'p-near';
    expect(validateProblem(pinned)).toEqual([{ field: 'visits[0].pinnedPractitionerId', message: 'is pinned to practitioner "p-near", whom it excludes' }]);
  });
});
