/**
 * Public problem and solution types of the schedule optimizer.
 * Times are seconds on one day's clock (e.g. 9:00 = 32400); distances are metres
 * (or the instance's own planar units when `coordinates` is 'planar').
 */

export interface Location {
  lat: number;
  lng: number;
}

export interface TimeWindow {
  start: number;
  end: number;
}

export interface Visit {
  id: string;
  location: Location;
  /** Service duration in seconds. */
  duration: number;
  /**
   * Allowed windows for the start of service. Empty or absent = any time within the shift.
   * Several windows = the client's availability slots; the visit must start inside one of them.
   */
  timeWindows?: TimeWindow[];
  /** Skill / appointment type the practitioner must have. */
  requiredSkill?: string;
  pinnedPractitionerId?: string;
  /** Practitioners who must never be given the visit (the client asked not to be visited by them). */
  excludedPractitionerIds?: string[];
  /** Locked start time; the visit stays at exactly this time. */
  pinnedStart?: number;
  /** Multiplies the unassigned penalty (default 1). */
  priority?: number;
  /** Who had the visit before; moving it to someone else costs the continuity penalty. */
  previousPractitionerId?: string;
  /** Load used against practitioner capacity (default 0). */
  demand?: number;
  /**
   * Soft window: the visit may start after the end of its last window, by up to `maxLatenessMinutes`,
   * at `weights.lateness` per minute late. Default false (hard windows). Ignored with `pinnedStart`.
   * Earlier windows of a multi-window visit are waited for, never served late.
   */
  allowLate?: boolean;
  /** Bound on lateness when `allowLate` is set, minutes (default 60). */
  maxLatenessMinutes?: number;
  /**
   * The start the client was told (seconds): once the order is chosen, the visit starts as close to it as its route
   * allows at no extra cost (never earlier than it can, never adding lateness or overtime), instead of as early as
   * possible. Travel is unchanged: only waiting moves.
   */
  preferredStart?: number;
  /** The start the client agreed to (seconds on the day's clock): each minute the visit starts away from it costs weights.moved (or movedWeight). */
  agreedStart?: number;
  /** Cost per minute this visit starts away from agreedStart; overrides weights.moved. */
  movedWeight?: number;
}

export interface Break {
  earliestStart: number;
  latestStart: number;
  duration: number;
}

export interface Practitioner {
  id: string;
  startLocation: Location;
  /** Defaults to startLocation. */
  endLocation?: Location;
  shift: TimeWindow;
  break?: Break;
  /** Skills / appointment types. A visit with requiredSkill needs it listed here. */
  skills?: string[];
  /** Max shift span from leaving the start to arriving at the end, seconds. */
  maxWorkingTime?: number;
  maxTravelTime?: number;
  /** Cost per hour of travel and per km travelled (defaults 1 and 0). */
  costPerHour?: number;
  costPerKm?: number;
  capacity?: number;
  /**
   * Minutes the route may end after `shift.end`, each priced at `weights.overtime` (default 0: the
   * shift end is hard). Breaks, max working and travel time stay hard.
   */
  maxOvertimeMinutes?: number;
  /**
   * Working time already planned for the practitioner on earlier days of the same plan (seconds, default 0). With
   * balance on, a route of working time w costs weights.balance × ((before + w)² − before²) per hour², so the days
   * even out across the plan: a practitioner whose earlier days were long is given less.
   */
  workedBeforeSeconds?: number;
}

export interface ObjectiveWeights {
  /** Multiplies each practitioner's travel cost (costPerHour × hours + costPerKm × km). */
  travelCost: number;
  /** Per unit of priority of an unassigned visit. */
  unassigned: number;
  /** Per visit moved away from its previous practitioner. */
  continuity: number;
  /** Per minute a visit that allows it starts after its (last) window ends. */
  lateness: number;
  /** Per minute a route ends after its practitioner's shift end. */
  overtime: number;
  /**
   * Per hour² of working time, summed over the routes with visits (default 0 = off): for a fixed total, smallest when
   * the days are even. A route's working time is from leaving its start to arriving at its end (travel, service,
   * waiting and the break). The search prices each route's shortest span without the break (its segment duration);
   * the reported term is of the planned times. See Practitioner.workedBeforeSeconds for a plan of several days.
   */
  balance: number;
  /** Per minute a visit starts away from its agreedStart (default 0 = off). Optional here until the engine prices it. */
  moved?: number;
}

export interface Problem {
  visits: Visit[];
  practitioners: Practitioner[];
  weights?: Partial<ObjectiveWeights>;
  /** Rounding step for reported arrival times, seconds (default 300; 0 disables). */
  arrivalStepSeconds?: number;
  /**
   * With balance on, the working time each practitioner's day is pulled towards (seconds), e.g. the mean of the day as
   * it is: the term is then max(0, before + w − target)² − max(0, before − target)² per route, where before is the
   * practitioner's workedBeforeSeconds less the mean of everyone's: only the hours beyond the target cost, so long days
   * give work to the others. Without it the term is (before + w)² − before², which also rewards shorter days in total
   * (less waiting) over even ones.
   */
  balanceTargetSeconds?: number;
  /**
   * 'geographic' (default): lat/lng in degrees. 'planar': lng = x, lat = y in arbitrary units
   * (benchmark instances with Euclidean travel).
   */
  coordinates?: 'geographic' | 'planar';
}

/** Travel matrix over a list of locations, row-major: value[i * size + j]. */
export interface TravelMatrix {
  size: number;
  /** Seconds. */
  durations: Float64Array;
  /** Metres (or planar units). */
  distances: Float64Array;
}

export interface TravelProvider {
  readonly name: string;
  matrix(locations: Location[]): Promise<TravelMatrix>;
}

export interface Stop {
  visitId: string;
  arrival: number;
  /** Start of service (the time told to the client; rounded when possible). */
  start: number;
  departure: number;
  waiting: number;
  /** Leg from the previous stop (or the start location). */
  travelTime: number;
  travelDistance: number;
  /** Seconds the start of service is after the visit's window end (0 when on time). */
  lateness: number;
}

export interface RouteBreak {
  start: number;
  end: number;
  /** Taken after this visit (null = before the first visit). */
  afterVisitId: string | null;
}

export interface Route {
  practitionerId: string;
  stops: Stop[];
  departStart: number;
  arriveEnd: number;
  /** Leg from the last stop (or start) to the end location. */
  returnTravelTime: number;
  returnTravelDistance: number;
  break: RouteBreak | null;
  travelTime: number;
  travelDistance: number;
  /** Seconds arriveEnd is after the shift end (0 when within the shift). */
  overtime: number;
}

export type UnassignedReason =
  /** No practitioner has its skill, or every one who has it is excluded from it. */
  | 'no-practitioner-with-skill'
  | 'pinned-practitioner-unavailable'
  | 'outside-every-shift'
  | 'no-room-in-schedules'
  /** Every eligible practitioner who could do it has as many visits as their capacity allows. */
  | 'capacity-reached';

export interface UnassignedVisit {
  visitId: string;
  reason: UnassignedReason;
  message: string;
  /** capacity-reached: the practitioners whose capacity it met. */
  practitionerIds?: string[];
}

export interface ObjectiveBreakdown {
  total: number;
  travelCost: number;
  travelTime: number;
  travelDistance: number;
  continuity: number;
  /** Cost of late starts (weights.lateness × minutes late). */
  lateness: number;
  /** Cost of overtime (weights.overtime × minutes past the shift end). */
  overtime: number;
  /** Cost of uneven days (weights.balance × Σ working hours² over the routes with visits). */
  balance: number;
  /** Cost of moves from the agreed starts (weights.moved × minutes moved). Optional here until the engine reports it. */
  moved?: number;
  unassigned: number;
}

export interface Solution {
  routes: Route[];
  unassigned: UnassignedVisit[];
  objective: ObjectiveBreakdown;
  /** `searches`: how many searches ran side by side (solveInWorker, OptimizerPool), when more than the caller's own. */
  stats: { iterations: number; elapsedMs: number; seed: number; stoppedBy: 'budget' | 'iterations' | 'abort'; searches?: number };
}

export interface Progress {
  bestCost: number;
  /** Seconds of travel of the best solution so far (every route, return legs included). */
  bestTravelTime: number;
  iterations: number;
  elapsedMs: number;
  /** 0..1 of the time (or iteration) budget used. */
  fraction: number;
}

export interface SolveOptions {
  seed?: number;
  timeBudgetMs?: number;
  /** Stop after this many search iterations (with a seed, makes the result reproducible). */
  maxIterations?: number;
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
  /** Travel provider or a precomputed matrix over `problemLocations(problem)`. */
  travel?: TravelProvider | TravelMatrix;
  /**
   * A plan to start from, such as the day as it is: each practitioner's visits in order. The answer is never worse
   * than it by the objective, once the visits that break their route where they are (and those their practitioner
   * may not do) are left for the search to place.
   */
  startFrom?: StartRoute[];
}

export interface StartRoute {
  practitionerId: string;
  visitIds: string[];
}
