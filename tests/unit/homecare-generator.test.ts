// The benchmarks' generated home-care day (bench/lib/homecare.ts): its bookings are a day a provider could work, so a
// run that keeps practitioners has every visit to route.
import { describe, expect, it } from 'vitest';
import { bookedSolution, generateHomecareDay } from '../../bench/lib/homecare';
import { checkSolution } from '../../server/src/optimizer/checker';
import { HaversineProvider } from '../../server/src/optimizer/travel/haversine';
import { problemLocations } from '../../server/src/optimizer/travel/matrix';

describe('the generated home-care day', () => {
  it.each([7, 8, 9])('books every visit of seed %i with a practitioner who has the skill and room for it', async (seed) => {
    const day = generateHomecareDay(40, 320, seed);
    const matrix = await new HaversineProvider().matrix(problemLocations(day.problem));
    // Shifts, breaks, clients' windows, skills and travel between stops, every visit booked once.
    expect(checkSolution(day.problem, bookedSolution(day), matrix).errors).toEqual([]);
    expect(day.problem.visits).toHaveLength(320);
    const bookedWith = new Map(day.booked.flatMap((route) => route.stops.map((stop) => [stop.visitId, route.practitionerId])));
    for (const visit of day.problem.visits) expect(visit.previousPractitionerId).toBe(bookedWith.get(visit.id));
  });

  it('is the same day for the same seed', () => {
    expect(generateHomecareDay(10, 60, 3)).toEqual(generateHomecareDay(10, 60, 3));
    expect(generateHomecareDay(10, 60, 4).problem.visits).not.toEqual(generateHomecareDay(10, 60, 3).problem.visits);
  });
});
