import type { ObjectiveWeights, Problem, TravelMatrix } from '../types';

export const DEFAULT_WEIGHTS: ObjectiveWeights = {
  travelCost: 1,
  unassigned: 100_000,
  continuity: 10,
  lateness: 5,
  overtime: 2,
  balance: 0,
  moved: 0,
};
export const DEFAULT_MAX_LATENESS_MINUTES = 60;
export const DEFAULT_COST_PER_HOUR = 60;
export const DEFAULT_COST_PER_KM = 0;

/**
 * Flat, typed-array view of a problem for the search. Node ids are matrix indices:
 * visits 0..n-1, then vehicle v's start node n+2v and end node n+2v+1.
 */
export interface CoreModel {
  n: number;
  vehicles: number;
  size: number;
  dur: Float64Array;
  dist: Float64Array;
  /**
   * True when both matrices are symmetric: the search then reads legs into a visit from the visit's own
   * row (one cache line stream per insertion scan) instead of walking down its column.
   */
  symmetric: boolean;
  service: Float64Array;
  /** Hull of each node's windows (a relaxation used for O(1) screening and concatenation). */
  twE: Float64Array;
  twL: Float64Array;
  /**
   * Seconds a soft-window visit may start after its last window ends (0 = hard). `twL` already includes
   * it (so the O(1) screening is exact for feasibility); the lateness is priced by `simulate`.
   */
  lateMax: Float64Array;
  /** Seconds a vehicle may end after its shift end (0 = hard); the end node's `twL` includes it. */
  otMax: Float64Array;
  /** Cost per second late and per second of overtime (weights applied). */
  lateCost: number;
  otCost: number;
  /** Cost per second² of a route's working time (weights.balance per hour²); 0 when balance is off. */
  balanceCost: number;
  /**
   * Each vehicle's balance offset (seconds): its working time planned before this day (Practitioner.workedBeforeSeconds),
   * less the mean of everyone's and the day's target when the problem gives one (Problem.balanceTargetSeconds).
   */
  balanceOffset: Float64Array;
  /** Exact windows of multi-window visits: node → [winOff[node], winOff[node+1]) in winS/winEnd. */
  multi: Uint8Array;
  /** True when some visit has several windows or a priced start (routes then count them on every update). */
  anyMultiOrSoft: boolean;
  /**
   * A visit's priced start: its soft window (lateMax > 0) or its agreed start (movedCost > 0). A route holding one is
   * priced by simulation (`simulatePriced`).
   */
  priced: Uint8Array;
  /** The agreed start of each visit (Visit.agreedStart; 0 without one) and its cost per second away (0 = not priced). */
  agreed: Float64Array;
  movedCost: Float64Array;
  /** True when some visit's agreed start is priced. */
  anyMoved: boolean;
  winOff: Int32Array;
  winS: Float64Array;
  winEnd: Float64Array;
  demand: Float64Array;
  startNode: Int32Array;
  endNode: Int32Array;
  shiftStart: Float64Array;
  shiftEnd: Float64Array;
  capacity: Float64Array;
  maxWork: Float64Array;
  maxTravel: Float64Array;
  /** Cost per second of travel and per distance unit, weights already applied. */
  costTime: Float64Array;
  costDist: Float64Array;
  breakE: Float64Array;
  breakL: Float64Array;
  /** < 0 when the vehicle has no break. */
  breakDur: Float64Array;
  /** 1 for a vehicle whose routes are always complex (RouteState.isComplex): a break, a max working time, overtime. */
  fixedComplex: Uint8Array;
  /** Vehicles with identical attributes share a type (empty routes of one type are interchangeable). */
  vtype: Int32Array;
  /** extra[c * vehicles + v]: continuity cost of visit c on v, Infinity when v may not do c. */
  extra: Float64Array;
  penalty: Float64Array;
  /** Locked visits (pinned practitioner and start) are never removed by the search. */
  locked: Uint8Array;
  /** The pinned, else the previous, practitioner of each visit (-1 for none): always an insertion candidate. */
  homeVehicle: Int32Array;
}

export function buildModel(problem: Problem, matrix: TravelMatrix): CoreModel {
  const n = problem.visits.length;
  const V = problem.practitioners.length;
  const size = n + 2 * V;
  if (matrix.size !== size) throw new Error(`travel: matrix size ${matrix.size} does not match ${size} locations`);
  const weights = { ...DEFAULT_WEIGHTS, ...problem.weights };
  const m: CoreModel = {
    n,
    vehicles: V,
    size,
    dur: matrix.durations,
    // Travel time equal to distance (planar benchmarks): one array, half the memory traffic in the search.
    dist: sameValues(matrix.durations, matrix.distances) ? matrix.durations : matrix.distances,
    symmetric: isSymmetric(matrix),
    service: new Float64Array(size),
    twE: new Float64Array(size),
    twL: new Float64Array(size),
    multi: new Uint8Array(size),
    anyMultiOrSoft: false,
    priced: new Uint8Array(size),
    agreed: new Float64Array(size),
    movedCost: new Float64Array(size),
    anyMoved: false,
    lateMax: new Float64Array(size),
    otMax: new Float64Array(V),
    lateCost: weights.lateness / 60,
    otCost: weights.overtime / 60,
    balanceCost: weights.balance / 3600 ** 2,
    balanceOffset: new Float64Array(V),
    winOff: new Int32Array(size + 1),
    winS: new Float64Array(0),
    winEnd: new Float64Array(0),
    demand: new Float64Array(size),
    startNode: new Int32Array(V),
    endNode: new Int32Array(V),
    shiftStart: new Float64Array(V),
    shiftEnd: new Float64Array(V),
    capacity: new Float64Array(V),
    maxWork: new Float64Array(V),
    maxTravel: new Float64Array(V),
    costTime: new Float64Array(V),
    costDist: new Float64Array(V),
    breakE: new Float64Array(V),
    breakL: new Float64Array(V),
    breakDur: new Float64Array(V),
    fixedComplex: new Uint8Array(V),
    vtype: new Int32Array(V),
    extra: new Float64Array(n * V),
    penalty: new Float64Array(n),
    locked: new Uint8Array(n),
    homeVehicle: new Int32Array(n).fill(-1),
  };
  const balanceShift = balanceShiftOf(problem);
  const dayStart = Math.min(0, ...problem.practitioners.map((p) => p.shift.start));
  const dayEnd = Math.max(0, ...problem.practitioners.map((p) => p.shift.end + 60 * (p.maxOvertimeMinutes ?? 0)));

  const winS: number[] = [];
  const winEnd: number[] = [];
  problem.visits.forEach((v, c) => {
    m.service[c] = v.duration;
    m.demand[c] = v.demand ?? 0;
    m.penalty[c] = weights.unassigned * (v.priority ?? 1);
    m.locked[c] = v.pinnedStart !== undefined && v.pinnedPractitionerId !== undefined ? 1 : 0;
    const windows =
      v.pinnedStart !== undefined
        ? [{ start: v.pinnedStart, end: v.pinnedStart }]
        : v.timeWindows && v.timeWindows.length
          ? [...v.timeWindows].sort((a, b) => a.start - b.start)
          : [{ start: dayStart, end: dayEnd }];
    m.winOff[c] = winS.length;
    for (const w of windows) {
      winS.push(w.start);
      winEnd.push(w.end);
    }
    m.twE[c] = windows[0].start;
    m.lateMax[c] =
      v.allowLate && v.pinnedStart === undefined && v.timeWindows?.length ? 60 * (v.maxLatenessMinutes ?? DEFAULT_MAX_LATENESS_MINUTES) : 0;
    m.twL[c] = Math.max(...windows.map((w) => w.end)) + m.lateMax[c];
    m.multi[c] = windows.length > 1 ? 1 : 0;
    if (v.agreedStart !== undefined) {
      m.agreed[c] = v.agreedStart;
      m.movedCost[c] = (v.movedWeight ?? weights.moved) / 60;
    }
    m.priced[c] = m.lateMax[c] > 0 || m.movedCost[c] > 0 ? 1 : 0;
    if (m.movedCost[c] > 0) m.anyMoved = true;
  });
  for (let k = n; k <= size; k++) m.winOff[k] = winS.length;
  for (let c = 0; c < n; c++) if (m.multi[c] || m.priced[c]) m.anyMultiOrSoft = true;
  m.winS = Float64Array.from(winS);
  m.winEnd = Float64Array.from(winEnd);

  const typeKeys = new Map<string, number>();
  problem.practitioners.forEach((p, v) => {
    const s = n + 2 * v;
    m.startNode[v] = s;
    m.endNode[v] = s + 1;
    m.shiftStart[v] = p.shift.start;
    m.shiftEnd[v] = p.shift.end;
    m.otMax[v] = 60 * (p.maxOvertimeMinutes ?? 0);
    for (const node of [s, s + 1]) {
      m.twE[node] = p.shift.start;
      m.twL[node] = p.shift.end + (node === s + 1 ? m.otMax[v] : 0);
    }
    m.capacity[v] = p.capacity ?? Infinity;
    m.maxWork[v] = p.maxWorkingTime ?? Infinity;
    m.balanceOffset[v] = (p.workedBeforeSeconds ?? 0) - balanceShift;
    m.maxTravel[v] = p.maxTravelTime ?? Infinity;
    m.costTime[v] = (weights.travelCost * (p.costPerHour ?? DEFAULT_COST_PER_HOUR)) / 3600;
    m.costDist[v] = (weights.travelCost * (p.costPerKm ?? DEFAULT_COST_PER_KM)) / 1000;
    m.breakE[v] = p.break?.earliestStart ?? 0;
    m.breakL[v] = p.break?.latestStart ?? 0;
    m.breakDur[v] = p.break ? p.break.duration : -1;
    m.fixedComplex[v] = m.breakDur[v] >= 0 || m.maxWork[v] !== Infinity || m.otMax[v] > 0 ? 1 : 0;
    const key = JSON.stringify([p.startLocation, p.endLocation ?? p.startLocation, p.shift, p.break ?? null,
      [...(p.skills ?? [])].sort(), p.maxWorkingTime, p.maxTravelTime, p.costPerHour, p.costPerKm, p.capacity, p.maxOvertimeMinutes ?? 0]);
    if (!typeKeys.has(key)) typeKeys.set(key, typeKeys.size);
    m.vtype[v] = typeKeys.get(key)!;
  });
  // Vehicles named by visits (pins, previous practitioner, exclusions) are not interchangeable with their twins.
  const named = new Set<string>();
  for (const v of problem.visits) {
    if (v.pinnedPractitionerId) named.add(v.pinnedPractitionerId);
    if (v.previousPractitionerId) named.add(v.previousPractitionerId);
    for (const id of v.excludedPractitionerIds ?? []) named.add(id);
  }
  problem.practitioners.forEach((p, v) => {
    if (named.has(p.id)) m.vtype[v] = typeKeys.size + v;
  });

  const vehicleOf = new Map(problem.practitioners.map((p, v) => [p.id, v]));
  problem.visits.forEach((visit, c) => {
    const home = visit.pinnedPractitionerId ?? visit.previousPractitionerId;
    if (home !== undefined) m.homeVehicle[c] = vehicleOf.get(home) ?? -1;
    problem.practitioners.forEach((p, v) => {
      let cost = 0;
      if (visit.requiredSkill !== undefined && !(p.skills ?? []).includes(visit.requiredSkill)) cost = Infinity;
      if (visit.pinnedPractitionerId !== undefined && visit.pinnedPractitionerId !== p.id) cost = Infinity;
      if (visit.excludedPractitionerIds?.includes(p.id)) cost = Infinity;
      if (cost === 0 && visit.previousPractitionerId !== undefined && visit.previousPractitionerId !== p.id) {
        cost = weights.continuity;
      }
      m.extra[c * V + v] = cost;
    });
  });
  return m;
}

function isSymmetric(matrix: TravelMatrix): boolean {
  const { size, durations: dur, distances: dist } = matrix;
  for (let i = 0; i < size; i++) {
    for (let j = i + 1; j < size; j++) {
      if (dur[i * size + j] !== dur[j * size + i] || dist[i * size + j] !== dist[j * size + i]) return false;
    }
  }
  return true;
}

function sameValues(a: Float64Array, b: Float64Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The balance term of vehicle v's route of `work` seconds (0 for an empty route): max(0, offset + work)² −
 * max(0, offset)², priced — only the part of a day beyond the target counts, so the term never pays for a longer day
 * (without a target, the offset is the working time before, ≥ 0, and this is (before + work)² − before²).
 */
export const balanceTerm = (m: CoreModel, v: number, work: number): number =>
  work === 0 ? 0 : m.balanceCost * overTarget(m.balanceOffset[v], work);

/** max(0, offset + work)² − max(0, offset)². */
export const overTarget = (offset: number, work: number): number => Math.max(0, offset + work) ** 2 - Math.max(0, offset) ** 2;

/** What every practitioner's balance offset is less than their working time before: with a target, the mean of those and the target. */
function balanceShiftOf(problem: Problem): number {
  if (problem.balanceTargetSeconds === undefined) return 0;
  const meanBefore = problem.practitioners.reduce((sum, p) => sum + (p.workedBeforeSeconds ?? 0), 0) / problem.practitioners.length;
  return meanBefore + problem.balanceTargetSeconds;
}
