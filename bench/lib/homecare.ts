import { Rng } from '../../server/src/optimizer/rng';
import type { Location, Practitioner, Problem, TimeWindow, Visit } from '../../server/src/optimizer/types';

const H = 3600;
export const SLOTS: TimeWindow[] = [
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
  /** The booking system's assignment: practitioner id → visit ids in booked order. */
  initial: Map<string, string[]>;
}

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
 * The booking system's assignment is messy: each visit went to a random practitioner with the skill,
 * in window order, regardless of geography.
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
  const vs: Visit[] = Array.from({ length: visits }, (_, i) => {
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
      id: `v${i + 1}`,
      location: near(rng, pick(suburbs), 1.5),
      duration: pick(DURATIONS),
      timeWindows: windows,
      requiredSkill: SKILLS[rng.int(SKILLS.length)],
      priority: rng.next() < 0.1 ? 3 : 1,
    };
  });
  // Messy booking: a random practitioner with the skill, booked in order of the earliest window.
  const initial = new Map<string, string[]>(ps.map((p) => [p.id, []]));
  for (const v of vs) {
    const able = ps.filter((p) => p.skills!.includes(v.requiredSkill!));
    const p = pick(able);
    v.previousPractitionerId = p.id;
    initial.get(p.id)!.push(v.id);
  }
  const first = new Map(vs.map((v) => [v.id, v.timeWindows?.[0].start ?? 12 * H]));
  for (const list of initial.values()) list.sort((a, b) => first.get(a)! - first.get(b)!);
  return { problem: { visits: vs, practitioners: ps }, initial };
}
