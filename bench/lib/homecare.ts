import { cheapestInsertion } from '../../server/src/optimizer/insertion';
import { Rng } from '../../server/src/optimizer/rng';
import { HaversineProvider } from '../../server/src/optimizer/travel/haversine';
import { matrixFromLegs, problemLocations } from '../../server/src/optimizer/travel/matrix';
import type { Location, Practitioner, Problem, Route, Solution, TimeWindow, Visit } from '../../server/src/optimizer/types';

const H = 3600;
const SLOTS: TimeWindow[] = [
  { start: 6 * H, end: 9 * H },
  { start: 9 * H, end: 12 * H },
  { start: 12 * H, end: 15 * H },
  { start: 15 * H, end: 18 * H },
];
const BRISBANE = { lat: -27.4698, lng: 153.0251 };
const SKILLS = ['physio', 'ot', 'nursing', 'podiatry'];
const DURATIONS = [30, 30, 45, 45, 45, 60, 60].map((m) => m * 60);

export interface HomecareDay {
  problem: Problem;
  /**
   * The booking system's day: each practitioner's visits in booked order at their booked times (the checker passes it
   * against the problem); each visit's previousPractitionerId is its practitioner here.
   */
  booked: Route[];
}

/** The booked day as a solution the checker reads: nothing unassigned, and no objective (the checker recomputes travel). */
export const bookedSolution = (day: HomecareDay): Solution => ({
  routes: day.booked,
  unassigned: [],
  objective: { total: 0, travelCost: 0, travelTime: 0, travelDistance: 0, continuity: 0, lateness: 0, overtime: 0, balance: 0, moved: 0, unassigned: 0 },
  stats: { iterations: 0, elapsedMs: 0, seed: 0, stoppedBy: 'iterations' },
});

/** A point about `km` kilometres at a random bearing from `from` (Gaussian spread). */
function near(rng: Rng, from: Location, km: number): Location {
  const u = Math.max(1e-12, rng.next());
  const r = km * Math.sqrt(-2 * Math.log(u));
  const a = rng.next() * 2 * Math.PI;
  return {
    lat: from.lat + (r * Math.cos(a)) / 111.32,
    lng: from.lng + (r * Math.sin(a)) / (111.32 * Math.cos((from.lat * Math.PI) / 180)),
  };
}

/**
 * A realistic Brisbane day: practitioners living across the metro area with 1–2 skills, shifts
 * starting 6–9 am, most with a lunch break; clients clustered in suburbs, each booking an
 * appointment type and giving availability as slots (06–09, 09–12, 12–15, 15–18) or all day.
 * The booking system's assignment is feasible but not planned: requests come in one by one, and each is booked with
 * a practitioner who has its skill and room for it (bookingDesk); a request nobody has room for is turned away (as a
 * provider would offer another day) and the next one taken, until `visits` are booked.
 */
export function generateHomecareDay(practitioners: number, visits: number, seed = 7): HomecareDay {
  const rng = new Rng(seed);
  const pick = <T>(xs: T[]) => xs[rng.int(xs.length)];
  const suburbs = Array.from({ length: Math.max(8, Math.round(practitioners * 0.75)) }, () => near(rng, BRISBANE, 9));
  const ps: Practitioner[] = Array.from({ length: practitioners }, (_, k) => {
    const start = pick([6, 7, 7, 8, 8, 8, 9]) * H;
    const skills = [SKILLS[k % SKILLS.length]];
    if (rng.next() < 0.4) skills.push(pick(SKILLS));
    const home = near(rng, pick(suburbs), 3);
    return {
      id: `p${k + 1}`,
      startLocation: home,
      endLocation: rng.next() < 0.15 ? near(rng, BRISBANE, 2) : undefined,
      shift: { start, end: start + pick([8, 9, 9, 10]) * H },
      break: rng.next() < 0.7 ? { earliestStart: 11.5 * H, latestStart: 13.5 * H, duration: 30 * 60 } : undefined,
      skills: [...new Set(skills)],
      costPerHour: 60,
      costPerKm: 0.5,
    };
  });
  const request = (id: string): Visit => {
    const roll = rng.next();
    let windows: TimeWindow[] | undefined;
    if (roll < 0.25) windows = undefined;
    else if (roll < 0.7) windows = [pick(SLOTS)];
    else {
      const a = rng.int(4);
      let b = rng.int(4);
      if (b === a) b = (a + 2) % 4;
      windows = [SLOTS[Math.min(a, b)], SLOTS[Math.max(a, b)]];
    }
    return {
      id,
      location: near(rng, pick(suburbs), 1.5),
      duration: pick(DURATIONS),
      timeWindows: windows,
      requiredSkill: SKILLS[rng.int(SKILLS.length)],
      priority: rng.next() < 0.1 ? 3 : 1,
    };
  };
  const desk = bookingDesk(ps);
  const vs: Visit[] = [];
  for (let requests = 0; vs.length < visits; requests++) {
    if (requests === 2 * visits) throw new Error(`generateHomecareDay: ${practitioners} practitioners have no room for ${visits} visits`);
    const visit = request(`v${vs.length + 1}`);
    if (desk.book(visit)) vs.push(visit);
  }
  return { problem: { visits: vs, practitioners: ps }, booked: desk.bookedRoutes() };
}

/**
 * The booking system: each practitioner's booked visits in visiting order, and their day as booked. A visit is booked
 * with a practitioner who has its skill and room for it — their day with it still keeps to their shift, their break
 * and every client's window, timed as the optimiser times a route — at the place in their day where it adds least
 * travel, and to the practitioner whose day it adds least travel to. Booked one at a time in the order requests come,
 * the days are workable but not planned (the optimiser's plan of the day travels about 40 % less).
 */
function bookingDesk(ps: Practitioner[]) {
  const travel = new HaversineProvider();
  const days = new Map<string, Visit[]>(ps.map((p) => [p.id, []]));
  const routes = new Map<string, Route>();
  return {
    /** Books the visit (setting its previousPractitionerId); false when no practitioner with its skill has room. */
    book(visit: Visit): boolean {
      const withRoom = ps.filter((p) => p.skills!.includes(visit.requiredSkill!)).flatMap((p) => {
        const day = days.get(p.id)!;
        const problem: Problem = { visits: [...day, visit], practitioners: [p] };
        const matrix = matrixFromLegs(problemLocations(problem), (a, b) => travel.leg(a, b));
        const insertion = cheapestInsertion(problem, matrix, [{ practitionerId: p.id, visitIds: day.map((v) => v.id) }], visit.id);
        return insertion ? [insertion] : [];
      });
      if (!withRoom.length) return false;
      const chosen = withRoom.reduce((best, insertion) => (insertion.addedTravelTime < best.addedTravelTime ? insertion : best));
      days.get(chosen.practitionerId)!.splice(chosen.position, 0, visit);
      routes.set(chosen.practitionerId, chosen.route);
      visit.previousPractitionerId = chosen.practitionerId;
      return true;
    },
    bookedRoutes: () => [...routes.values()],
  };
}
