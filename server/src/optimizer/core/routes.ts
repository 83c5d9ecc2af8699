import { balanceTerm, type CoreModel } from './model';

const EPS = 1e-7;
/** The cost of an infeasible route: more than any feasible plan's, still finite (sums stay exact to about 1e-7). */
const INFEASIBLE_ROUTE = 1e9;

/**
 * Routes of all vehicles in flat typed arrays. Route r occupies positions [r*stride, r*stride+len[r]+1]:
 * position 0 is the start node, 1..len the visits, len+1 the end node.
 *
 * Forward (prefix) and backward (suffix) segment data follow Vidal et al. (2013): duration D, time warp
 * TW, earliest/latest start E/L, which merge in O(1), so an insertion is checked against every time
 * window of its route in constant time. Windows here are each visit's hull; routes holding a
 * multi-window visit or a vehicle with a break are confirmed by exact simulation (`simulate`).
 */
export class RouteState {
  readonly stride: number;
  readonly nodes: Int32Array;
  readonly len: Int32Array;
  readonly fD: Float64Array;
  readonly fTW: Float64Array;
  readonly fE: Float64Array;
  readonly fL: Float64Array;
  readonly fDist: Float64Array;
  readonly fTT: Float64Array;
  readonly fLoad: Float64Array;
  readonly bD: Float64Array;
  readonly bTW: Float64Array;
  readonly bE: Float64Array;
  readonly bL: Float64Array;
  readonly bTT: Float64Array;
  readonly bLoad: Float64Array;
  readonly nMulti: Int32Array;
  /** Visits with a priced start (soft window, agreed start) on each route. */
  readonly nSoft: Int32Array;
  /** 1 when route r is complex (`isComplex`), kept by `update`. */
  readonly complex: Uint8Array;
  /** Route cost: travel plus `softCost` (lateness and overtime, priced by simulation) plus `balanceCost`. */
  readonly cost: Float64Array;
  readonly softCost: Float64Array;
  /** The balance term of each route (balanceTerm of its duration; 0 for an empty route). */
  readonly balanceCost: Float64Array;
  /** Route (vehicle) of each visit, -1 when unassigned. */
  readonly routeOf: Int32Array;
  readonly posOf: Int32Array;
  /** Scratch sequence for exact simulation. */
  readonly seq: Int32Array;

  constructor(readonly m: CoreModel) {
    const V = m.vehicles;
    this.stride = m.n + 2;
    const total = V * this.stride;
    this.nodes = new Int32Array(total);
    this.len = new Int32Array(V);
    const f = () => new Float64Array(total);
    this.fD = f(); this.fTW = f(); this.fE = f(); this.fL = f(); this.fDist = f(); this.fTT = f(); this.fLoad = f();
    // No backward distance: nothing reads it (an insertion's distance comes from the forward sums).
    this.bD = f(); this.bTW = f(); this.bE = f(); this.bL = f(); this.bTT = f(); this.bLoad = f();
    this.nMulti = new Int32Array(V);
    this.nSoft = new Int32Array(V);
    this.complex = new Uint8Array(V);
    this.cost = new Float64Array(V);
    this.softCost = new Float64Array(V);
    this.balanceCost = new Float64Array(V);
    this.routeOf = new Int32Array(m.n).fill(-1);
    this.posOf = new Int32Array(m.n).fill(-1);
    this.seq = new Int32Array(this.stride + 2);
    for (let r = 0; r < V; r++) {
      this.nodes[r * this.stride] = m.startNode[r];
      this.nodes[r * this.stride + 1] = m.endNode[r];
      this.update(r);
    }
  }

  /**
   * Recomputes route r's segment data, cost and visit positions after its node list changed from
   * position `from` on (forward data before it is kept; every position when visits may have several
   * or soft windows, which are counted on the way).
   */
  update(r: number, from = 1): void {
    const m = this.m;
    const size = m.size;
    const dur = m.dur;
    const dist = m.dist;
    const base = r * this.stride;
    const last = this.len[r] + 1;
    const nodes = this.nodes;
    let node = nodes[base];
    this.fD[base] = 0; this.fTW[base] = 0; this.fE[base] = m.twE[node]; this.fL[base] = m.twL[node];
    this.fDist[base] = 0; this.fTT[base] = 0; this.fLoad[base] = 0;
    let multi = 0;
    let soft = 0;
    const first = m.anyMultiOrSoft ? 1 : Math.max(1, Math.min(from, last));
    for (let i = first; i <= last; i++) {
      const k = base + i;
      const prev = nodes[k - 1];
      node = nodes[k];
      if (i < last) {
        this.routeOf[node] = r;
        this.posOf[node] = i;
        multi += m.multi[node];
        soft += m.priced[node];
      }
      const t = dur[prev * size + node];
      const D1 = this.fD[k - 1], TW1 = this.fTW[k - 1], E1 = this.fE[k - 1], L1 = this.fL[k - 1];
      const e2 = m.twE[node], l2 = m.twL[node];
      const delta = D1 - TW1 + t;
      const dWT = Math.max(e2 - delta - L1, 0);
      const dTW = Math.max(E1 + delta - l2, 0);
      this.fD[k] = D1 + m.service[node] + t + dWT;
      this.fTW[k] = TW1 + dTW;
      this.fE[k] = Math.max(e2 - delta, E1) - dWT;
      this.fL[k] = Math.min(l2 - delta, L1) + dTW;
      this.fDist[k] = this.fDist[k - 1] + dist[prev * size + node];
      this.fTT[k] = this.fTT[k - 1] + t;
      this.fLoad[k] = this.fLoad[k - 1] + m.demand[node];
    }
    this.nMulti[r] = multi;
    this.nSoft[r] = soft;
    this.complex[r] = multi > 0 || soft > 0 || m.fixedComplex[r] ? 1 : 0;
    const kl = base + last;
    node = nodes[kl];
    this.bD[kl] = 0; this.bTW[kl] = 0; this.bE[kl] = m.twE[node]; this.bL[kl] = m.twL[node];
    this.bTT[kl] = 0; this.bLoad[kl] = 0;
    for (let i = last - 1; i >= 0; i--) {
      const k = base + i;
      node = nodes[k];
      const next = nodes[k + 1];
      const t = dur[node * size + next];
      const e1 = m.twE[node], l1 = m.twL[node], s1 = m.service[node];
      const D2 = this.bD[k + 1], TW2 = this.bTW[k + 1], E2 = this.bE[k + 1], L2 = this.bL[k + 1];
      const delta = s1 + t;
      const dWT = Math.max(E2 - delta - l1, 0);
      const dTW = Math.max(e1 + delta - L2, 0);
      this.bD[k] = s1 + D2 + t + dWT;
      this.bTW[k] = TW2 + dTW;
      this.bE[k] = Math.max(E2 - delta, e1) - dWT;
      this.bL[k] = Math.min(L2 - delta, l1) + dTW;
      this.bTT[k] = this.bTT[k + 1] + t;
      this.bLoad[k] = this.bLoad[k + 1] + m.demand[node];
    }
    let softCost = 0;
    if (this.len[r] > 0 && (soft > 0 || m.otMax[r] > 0)) {
      for (let j = 0; j <= last; j++) this.seq[j] = nodes[base + j];
      softCost = simulatePriced(m, r, this.seq, last + 1, null);
      // An infeasible route (only a removal can leave one: see removeFlagged) is priced so that the search never keeps
      // it, finitely so as not to poison the sums.
      if (softCost === Infinity) softCost = INFEASIBLE_ROUTE;
    }
    this.softCost[r] = softCost;
    // Without balance (Solomon, most days) nothing to price: no call on every update.
    const balance = m.balanceCost > 0 && this.len[r] !== 0 ? balanceTerm(m, r, this.fD[kl]) : 0;
    this.balanceCost[r] = balance;
    this.cost[r] =
      this.len[r] === 0 ? 0 : m.costTime[r] * this.fTT[kl] + m.costDist[r] * this.fDist[kl] + softCost + balance;
  }

  /** True when route r's feasibility must be confirmed by simulation rather than segment data alone. */
  isComplex(r: number): boolean {
    return this.complex[r] === 1;
  }

  /**
   * Cost delta (travel, the balance term, plus lateness and overtime on priced routes) of inserting visit c after position
   * i of route r, or Infinity when infeasible. O(1) for plain routes; exact simulation otherwise.
   */
  insertionDelta(r: number, i: number, c: number, bound: number): number {
    const m = this.m;
    const size = m.size;
    const base = r * this.stride;
    const k = base + i;
    const p = this.nodes[k];
    const q = this.nodes[k + 1];
    const pc = p * size + c, cq = c * size + q, pq = p * size + q;
    const dT = m.dur[pc] + m.dur[cq] - m.dur[pq];
    const delta = m.costTime[r] * dT + m.costDist[r] * (m.dist[pc] + m.dist[cq] - m.dist[pq]);
    if (delta >= bound) return Infinity;
    let balanceDelta = 0;
    if (this.fLoad[k] + m.demand[c] + this.bLoad[k + 1] > m.capacity[r]) return Infinity;
    // prefix ⊕ c
    const t1 = m.dur[pc];
    const D1 = this.fD[k], E1 = this.fE[k], L1 = this.fL[k];
    const e2 = m.twE[c], l2 = m.twL[c];
    const d1 = D1 - this.fTW[k] + t1;
    const dTW1 = E1 + d1 - l2;
    if (dTW1 > EPS) return Infinity;
    const dWT1 = Math.max(e2 - d1 - L1, 0);
    const D = D1 + m.service[c] + t1 + dWT1;
    const E = Math.max(e2 - d1, E1) - dWT1;
    const L = Math.min(l2 - d1, L1);
    // (prefix ⊕ c) ⊕ suffix
    const t2 = m.dur[cq];
    const kn = k + 1;
    const d2 = D + t2;
    if (E + d2 - this.bL[kn] > EPS) return Infinity;
    const dWT2 = Math.max(this.bE[kn] - d2 - L, 0);
    const work = D + this.bD[kn] + t2 + dWT2;
    if (work > m.maxWork[r] + EPS) return Infinity;
    if (this.fTT[k] + t1 + t2 + this.bTT[kn] > m.maxTravel[r] + EPS) return Infinity;
    if (m.balanceCost > 0) balanceDelta = balanceTerm(m, r, work) - this.balanceCost[r];
    if (m.multi[c] || m.priced[c] || this.isComplex(r)) {
      const last = this.len[r] + 1;
      const seq = this.seq;
      let s = 0;
      for (let j = 0; j <= i; j++) seq[s++] = this.nodes[base + j];
      seq[s++] = c;
      for (let j = i + 1; j <= last; j++) seq[s++] = this.nodes[base + j];
      const softCost = simulatePriced(m, r, seq, s, null);
      if (softCost === Infinity) return Infinity;
      return delta + balanceDelta + softCost - this.softCost[r];
    }
    return delta + balanceDelta;
  }

  /** Inserts visit c after position i of route r. */
  insert(r: number, i: number, c: number): void {
    const base = r * this.stride;
    const last = this.len[r] + 1;
    this.nodes.copyWithin(base + i + 2, base + i + 1, base + last + 1);
    this.nodes[base + i + 1] = c;
    this.len[r]++;
    this.update(r, i + 1);
  }

  /** Removes the visits flagged in `removed` from route r (one pass, then one update). */
  removeFlagged(r: number, removed: Uint8Array): void {
    const base = r * this.stride;
    const last = this.len[r] + 1;
    let w = 1;
    let firstRemoved = last;
    for (let i = 1; i < last; i++) {
      const c = this.nodes[base + i];
      if (removed[c]) {
        this.routeOf[c] = -1;
        this.posOf[c] = -1;
        if (firstRemoved === last) firstRemoved = i;
      } else this.nodes[base + w++] = c;
    }
    this.nodes[base + w] = this.nodes[base + last];
    this.len[r] = w - 1;
    this.update(r, firstRemoved);
    // Taking visits out of a route with a break can leave it infeasible: the break is taken where the visit before it
    // ends, so a removed visit next to the one after the break may have been the only place it fitted. Such a route is
    // priced so that the search never keeps it (an insertion that makes it feasible again gains the price back).
    if (this.len[r] > 0 && this.complex[r] === 1 && this.softCost[r] < INFEASIBLE_ROUTE && !this.feasible(r)) {
      this.softCost[r] += INFEASIBLE_ROUTE;
      this.cost[r] += INFEASIBLE_ROUTE;
    }
  }

  /** Replaces route r's visits with `visits` (no feasibility check). */
  setRoute(r: number, visits: ArrayLike<number>, count = visits.length): void {
    const base = r * this.stride;
    const end = this.nodes[base + this.len[r] + 1];
    for (let i = 1; i <= this.len[r]; i++) {
      const c = this.nodes[base + i];
      if (this.routeOf[c] === r) {
        this.routeOf[c] = -1;
        this.posOf[c] = -1;
      }
    }
    for (let i = 0; i < count; i++) this.nodes[base + 1 + i] = visits[i];
    this.nodes[base + 1 + count] = end;
    this.len[r] = count;
    this.update(r);
  }

  /** Route r's shortest span from leaving its start to reaching its end (travel, service, waiting; without the break). */
  duration(r: number): number {
    return this.fD[r * this.stride + this.len[r] + 1];
  }

  visitsOf(r: number): number[] {
    const base = r * this.stride;
    return Array.from(this.nodes.subarray(base + 1, base + 1 + this.len[r]));
  }

  /** True when route r is feasible (segment data, then simulation if needed). */
  feasible(r: number): boolean {
    const m = this.m;
    const k = r * this.stride + this.len[r] + 1;
    if (this.fTW[k] > EPS || this.fLoad[k] > m.capacity[r] || this.fD[k] > m.maxWork[r] + EPS) return false;
    if (this.fTT[k] > m.maxTravel[r] + EPS) return false;
    if (!this.isComplex(r)) return true;
    const base = r * this.stride;
    const n = this.len[r] + 2;
    for (let j = 0; j < n; j++) this.seq[j] = this.nodes[base + j];
    return simulate(m, r, this.seq, n, null);
  }
}

/** Times of one simulated route, filled when `simulate` is given an output object. */
export interface Schedule {
  departStart: number;
  arrival: number[];
  start: number[];
  /** Index in the sequence after which the break is taken (0 = at the start), -1 for none. */
  breakAfter: number;
  breakStart: number;
  arriveEnd: number;
  /** Seconds late at each visit (0 when on time), filled like `start`. */
  lateness: number[];
  /** Seconds past the shift end. */
  overtime: number;
}

/**
 * Exact forward simulation of vehicle v over the node sequence seq[0..n) (start node … end node):
 * earliest service in the first window that can still be reached, departure from the start just in time
 * for the first visit, and the break at its best feasible position (`breakAt`): at the start location before
 * the first visit (then leaving just in time after it), between two visits, or after the last, as early as it can
 * be there. Returns feasibility against windows, shift, break, capacity, max working and travel time.
 * `minStart` optionally forces later starts (rounding).
 */
export function simulate(
  m: CoreModel,
  v: number,
  seq: ArrayLike<number>,
  n: number,
  out: Schedule | null,
  minStart?: Float64Array,
): boolean {
  return simulateCost(m, v, seq, n, out, minStart) !== Infinity;
}

/**
 * `simulate`, returning the priced soft terms of the schedule (lateness × weight at soft-window visits,
 * overtime × weight at the end) or Infinity when infeasible. The earliest schedule minimises both.
 * When only the max working time fails, the departure is delayed by the excess (a few times) so that
 * early visits without windows do not stretch the day (e.g. after the visit that set the pace is removed).
 */
export function simulateCost(
  m: CoreModel,
  v: number,
  seq: ArrayLike<number>,
  n: number,
  out: Schedule | null,
  minStart?: Float64Array,
): number {
  let minDepart = -Infinity;
  for (let attempt = 0; ; attempt++) {
    spanExcess = 0;
    const cost = simulateFrom(m, v, seq, n, out, minStart, minDepart);
    if (cost !== Infinity || spanExcess <= EPS || attempt === 4) return cost;
    minDepart = lastDepart + spanExcess;
  }
}

/**
 * `simulateCost`, with each visit priced for moving from its agreed start (CoreModel.movedCost) started as close to it
 * as the route allows: the earliest schedule, then the one whose starts are pulled towards the agreed ones — a backward
 * pass of each visit's latest start that keeps every later visit in the window it reaches, the break in its window, no
 * lateness or overtime added and the working time within its bound, then a forward pass starting each visit at
 * max(arrival, window start, min(agreed, latest)) — whichever costs less (it is then the one `out` receives and
 * `pulledBounds` gives the bounds of). Without priced agreed starts, exactly `simulateCost`.
 */
export function simulatePriced(
  m: CoreModel,
  v: number,
  seq: ArrayLike<number>,
  n: number,
  out: Schedule | null,
  minStart?: Float64Array,
): number {
  pulled = false;
  if (!m.anyMoved) return simulateCost(m, v, seq, n, out, minStart);
  const c0 = simulateCost(m, v, seq, n, out, minStart);
  if (c0 === Infinity || !routeMoved || n <= 2) return c0;
  const size = m.size;
  if (prLatest.length < n) {
    prLatest = new Float64Array(2 * n);
    prBounds = new Float64Array(2 * n);
  }
  // Latest starts, back from the end: no overtime beyond the earliest schedule's, no lateness, the working time bounded
  // from the earliest departure (the break-free times are a lower bound on the real ones, which keeps this safe).
  let latest = Math.max(m.shiftEnd[v], nbStart[n - 1]);
  if (m.maxWork[v] !== Infinity) latest = Math.min(latest, Math.max(nbStart[n - 1], nbStart[1] - m.dur[seq[0] * size + seq[1]] + m.maxWork[v]));
  prLatest[n - 1] = latest;
  const breakAfter = m.breakDur[v] >= 0 ? bestK : -1;
  for (let i = n - 2; i >= 1; i--) {
    const node = seq[i];
    let depart = prLatest[i + 1] - m.dur[node * size + seq[i + 1]];
    if (i === breakAfter) depart = Math.min(m.breakL[v], depart - m.breakDur[v]);
    prLatest[i] = Math.min(depart - m.service[node], hardEndAt(m, node, nbStart[i]));
  }
  let pull = false;
  for (let i = 0; i < n; i++) prBounds[i] = minStart ? minStart[i] : -Infinity;
  for (let i = 1; i < n - 1; i++) {
    const node = seq[i];
    if (m.movedCost[node] <= 0) continue;
    const target = Math.min(m.agreed[node], prLatest[i]);
    if (target > nbStart[i] + EPS) {
      pull = true;
      if (target > prBounds[i]) prBounds[i] = target;
    }
  }
  if (!pull) return c0;
  const c1 = simulateCost(m, v, seq, n, null, prBounds);
  if (!(c1 < c0 - 1e-9)) return c0;
  pulled = true;
  if (out) simulateCost(m, v, seq, n, out, prBounds);
  return c1;
}

/** The lower bounds on the starts of the last `simulatePriced` schedule (a copy), or null when it was the earliest one. */
export function pulledBounds(n: number): Float64Array | null {
  return pulled ? prBounds.slice(0, n) : null;
}

let prLatest = new Float64Array(64);
let prBounds = new Float64Array(64);
let pulled = false;

/** The end of the window (its hard end) that a start at `st` is in; `st` when it is after every window (late). */
function hardEndAt(m: CoreModel, node: number, st: number): number {
  for (let w = m.winOff[node]; w < m.winOff[node + 1]; w++) if (st <= m.winEnd[w] + EPS) return m.winEnd[w];
  return st;
}

/** Set by `simulateFrom` when it fails on max working time alone: by how much, and the departure. */
let spanExcess = 0;
let lastDepart = 0;

/**
 * The route's earliest schedule without the break, position by position (scratch, reused): start of service at
 * seq[i] (for the end node, the arrival) and the priced soft cost of seq[1..i].
 */
let nbStart = new Float64Array(64);
let nbCost = new Float64Array(64);
/** Set by `breakAt`: the schedule's departure from the start and arrival at the end. */
let atDepart = 0;
let atEnd = 0;
/** Returned by `breakAt` when the position cannot beat the bound it was given (it may still be feasible). */
const PRUNED = -1;
/**
 * The position being tried and the best one so far (`simulateFrom`'s scan): start and priced cost up to each visit
 * after the break, up to where the times meet the break-free ones again (`…Merge`, n when they do not), from where they
 * are the break-free ones with the cost `…Offset` higher.
 */
let curSt = new Float64Array(64);
let curCost = new Float64Array(64);
let curMerge = 0;
let curOffset = 0;
let bestSt = new Float64Array(64);
let bestCostAt = new Float64Array(64);
let bestK = -1;
let bestMerge = 0;
let bestOffset = 0;
/** Set by `simulateFrom`: the route holds a visit priced for moving from its agreed start. */
let routeMoved = false;

function simulateFrom(
  m: CoreModel,
  v: number,
  seq: ArrayLike<number>,
  n: number,
  out: Schedule | null,
  minStart: Float64Array | undefined,
  minDepart: number,
): number {
  const size = m.size;
  if (out) {
    out.arrival.length = 0;
    out.start.length = 0;
    out.lateness.length = 0;
    out.overtime = 0;
    out.breakAfter = -1;
    out.breakStart = 0;
  }
  if (n === 2) {
    if (out) {
      out.departStart = m.shiftStart[v];
      out.arriveEnd = m.shiftStart[v] + m.dur[seq[0] * size + seq[1]];
    }
    return 0;
  }
  if (nbStart.length < n) {
    nbStart = new Float64Array(2 * n);
    nbCost = new Float64Array(2 * n);
  }
  // The schedule without the break: every position's times with the break are at least these, so a route that fails
  // here fails with the break anywhere.
  const t0 = Math.max(m.shiftStart[v], minDepart);
  let t = t0;
  let cost = 0;
  let load = 0;
  let travel = 0;
  nbStart[0] = t0;
  nbCost[0] = 0;
  routeMoved = false;
  for (let i = 1; i < n; i++) {
    const node = seq[i];
    const leg = m.dur[seq[i - 1] * size + node];
    travel += leg;
    const arr = t + leg;
    if (i === n - 1) {
      if (arr > m.shiftEnd[v] + m.otMax[v] + EPS) return Infinity;
      if (arr > m.shiftEnd[v]) cost += m.otCost * (arr - m.shiftEnd[v]);
      nbStart[i] = arr;
      nbCost[i] = cost;
      t = arr;
      break;
    }
    const st = earliestStart(m, node, arr, minStart ? minStart[i] : -Infinity);
    if (st === Infinity) return Infinity;
    if (m.lateMax[node] > 0) cost += m.lateCost * Math.max(0, st - (m.twL[node] - m.lateMax[node]));
    if (m.movedCost[node] > 0) {
      cost += m.movedCost[node] * Math.abs(st - m.agreed[node]);
      routeMoved = true;
    }
    nbStart[i] = st;
    nbCost[i] = cost;
    load += m.demand[node];
    t = st + m.service[node];
  }
  if (load > m.capacity[v] + EPS) return Infinity;
  if (travel > m.maxTravel[v] + EPS) return Infinity;
  // Leave just in time for the first visit.
  const depart = Math.max(t0, nbStart[1] - m.dur[seq[0] * size + seq[1]]);

  if (m.breakDur[v] < 0) {
    if (out) fillPrefix(m, seq, n - 1, depart, out);
    if (t - depart > m.maxWork[v] + EPS) {
      spanExcess = t - depart - m.maxWork[v];
      lastDepart = depart;
      return Infinity;
    }
    if (out) {
      out.departStart = depart;
      out.arriveEnd = t;
      out.overtime = Math.max(0, t - m.shiftEnd[v]);
    }
    return cost;
  }

  // The break's position: the least priced cost, then the least waiting, then the earliest end. After a visit, only
  // the positions whose departure (without the break) is inside the break window, and the last one before it: an
  // earlier one is never better (the break starts at its earliest there too, with fewer visits done before it).
  // They are tried from the latest (the shortest simulation) back, each stopped as soon as it is no better than the
  // best so far at a visit both have taken the break before; the start location last.
  const bE = m.breakE[v];
  const bL = m.breakL[v];
  let first = n - 1;
  let last = 0;
  // A position whose break ends in time for the next visit's break-free start (in waiting) delays nothing.
  let absorbed = -1;
  for (let k = 1; k <= n - 2; k++) {
    const dep = nbStart[k] + m.service[seq[k]];
    if (dep > bL + EPS) break;
    if (k < n - 2 && Math.max(dep, bE) + m.breakDur[v] + m.dur[seq[k] * size + seq[k + 1]] <= nbStart[k + 1] + EPS) {
      absorbed = k;
      if (first > k) first = k;
      last = k;
      break;
    }
    if (dep <= bE && k < n - 2 && nbStart[k + 1] + m.service[seq[k + 1]] <= bE) continue;
    if (first > k) first = k;
    last = k;
  }
  if (curSt.length < n) {
    curSt = new Float64Array(2 * n);
    curCost = new Float64Array(2 * n);
    bestSt = new Float64Array(2 * n);
    bestCostAt = new Float64Array(2 * n);
  }
  bestK = -1;
  bestMerge = n;
  bestOffset = 0;
  let bestCost = Infinity;
  let bestWait = Infinity;
  let bestEnd = Infinity;
  let excess = Infinity;
  let excessDepart = 0;
  if (absorbed > 0 && t - depart <= m.maxWork[v] + EPS) {
    // The break-free cost and end: no other position after a visit does better; only the start location may wait less.
    bestK = absorbed;
    bestCost = cost;
    bestWait = t - depart - m.breakDur[v];
    bestEnd = t;
    bestMerge = absorbed + 1;
    last = 0;
  }
  for (let k = last; k >= 0; k = k > first ? k - 1 : 0) {
    if (k === 0 && Math.max(t0, bE) > bL + EPS) break;
    spanExcess = 0;
    const c = breakAt(m, v, seq, n, k, t0, depart, minStart, bestCost, null);
    if (c === Infinity) {
      if (spanExcess > 0 && atEnd - atDepart - m.maxWork[v] < excess) {
        excess = atEnd - atDepart - m.maxWork[v];
        excessDepart = atDepart;
      }
    } else if (c !== PRUNED) {
      const wait = atEnd - atDepart - (k > 0 ? m.breakDur[v] : 0);
      if (c < bestCost - EPS || (c <= bestCost + EPS && (wait < bestWait - EPS || (wait <= bestWait + EPS && atEnd < bestEnd - EPS)))) {
        bestK = k;
        bestCost = c;
        bestWait = wait;
        bestEnd = atEnd;
        [bestSt, curSt] = [curSt, bestSt];
        [bestCostAt, curCost] = [curCost, bestCostAt];
        bestMerge = curMerge;
        bestOffset = curOffset;
        // The break without delay to anything (taken in waiting): no other position after a visit can do better.
        if (k > 0 && c <= cost + EPS && atEnd <= t + EPS) k = 1;
      }
    }
    if (k === 0) break;
  }
  spanExcess = 0;
  if (bestK < 0) {
    if (excess !== Infinity) {
      spanExcess = excess;
      lastDepart = excessDepart;
    }
    return Infinity;
  }
  if (out) breakAt(m, v, seq, n, bestK, t0, depart, minStart, Infinity, out);
  return bestCost;
}

/** Fills `out` with the break-free schedule of seq[1..last) from `nbStart`, leaving the start at `depart`. */
function fillPrefix(m: CoreModel, seq: ArrayLike<number>, last: number, depart: number, out: Schedule): void {
  const size = m.size;
  let t = depart;
  for (let i = 1; i < last; i++) {
    const node = seq[i];
    out.arrival.push(t + m.dur[seq[i - 1] * size + node]);
    out.start.push(nbStart[i]);
    out.lateness.push(m.lateMax[node] > 0 ? Math.max(0, nbStart[i] - (m.twL[node] - m.lateMax[node])) : 0);
    t = nbStart[i] + m.service[node];
  }
}

/**
 * Priced soft cost of the route with the break after position k of the sequence (0: at the start location, before
 * leaving), as early as it can start there; Infinity when infeasible (with `spanExcess` set when it fails on max
 * working time alone), PRUNED when its cost exceeds `bound`. Sets `atDepart` and `atEnd`. Visits before the break keep
 * their break-free times (`nbStart`); after it, the times are simulated until they meet the break-free ones again.
 * With `out`, fills the whole schedule.
 */
function breakAt(
  m: CoreModel,
  v: number,
  seq: ArrayLike<number>,
  n: number,
  k: number,
  t0: number,
  depart: number,
  minStart: Float64Array | undefined,
  bound: number,
  out: Schedule | null,
): number {
  const size = m.size;
  const bs = Math.max(k === 0 ? t0 : nbStart[k] + m.service[seq[k]], m.breakE[v]);
  if (bs > m.breakL[v] + EPS) return Infinity;
  let t = bs + m.breakDur[v];
  let cost = nbCost[k];
  let departStart = depart;
  curMerge = n;
  curOffset = 0;
  if (out) {
    fillPrefix(m, seq, k + 1, depart, out);
    out.breakAfter = k;
    out.breakStart = bs;
  }
  for (let i = k + 1; i < n; i++) {
    const node = seq[i];
    const leg = m.dur[seq[i - 1] * size + node];
    let arr = t + leg;
    if (i === n - 1) {
      if (arr > m.shiftEnd[v] + m.otMax[v] + EPS) return Infinity;
      if (arr > m.shiftEnd[v]) {
        cost += m.otCost * (arr - m.shiftEnd[v]);
        if (out) out.overtime = arr - m.shiftEnd[v];
      }
      t = arr;
      break;
    }
    const st = earliestStart(m, node, arr, minStart ? minStart[i] : -Infinity);
    if (st === Infinity) return Infinity;
    if (i === 1) {
      // The break was taken at the start: leave just in time after it.
      departStart = Math.max(t, st - leg);
      arr = departStart + leg;
    }
    if (!out && st <= nbStart[i] + EPS) {
      // Back on the break-free times: the rest of the route is theirs.
      curMerge = i;
      curOffset = cost - nbCost[i - 1];
      cost += nbCost[n - 1] - nbCost[i - 1];
      t = nbStart[n - 1];
      break;
    }
    let late = 0;
    if (m.lateMax[node] > 0) {
      late = Math.max(0, st - (m.twL[node] - m.lateMax[node]));
      cost += m.lateCost * late;
      if (cost > bound + EPS) return PRUNED;
    }
    if (m.movedCost[node] > 0) {
      cost += m.movedCost[node] * Math.abs(st - m.agreed[node]);
      if (cost > bound + EPS) return PRUNED;
    }
    if (out) {
      out.arrival.push(arr);
      out.start.push(st);
      out.lateness.push(late);
    } else {
      curSt[i] = st;
      curCost[i] = cost;
      // No better than the best position so far, both breaks taken: later times never cost less nor end sooner (unless
      // a visit is priced for starting before its agreed start).
      if (k > 0 && bestK > 0 && i > bestK && !routeMoved) {
        const merged = i >= bestMerge;
        if (st >= (merged ? nbStart[i] : bestSt[i]) - EPS && cost >= (merged ? nbCost[i] + bestOffset : bestCostAt[i]) - EPS) return PRUNED;
      }
    }
    t = st + m.service[node];
  }
  atDepart = departStart;
  atEnd = t;
  if (t - departStart > m.maxWork[v] + EPS) {
    spanExcess = t - departStart - m.maxWork[v];
    return Infinity;
  }
  if (cost > bound + EPS) return PRUNED;
  if (out) {
    out.departStart = departStart;
    out.arriveEnd = t;
  }
  return cost;
}

/**
 * Earliest service start of `node` for an arrival at `arr`, Infinity when every window has closed (and
 * the soft-window allowance after the last one is used up).
 */
export function earliestStart(m: CoreModel, node: number, arr: number, minStart: number): number {
  const a = Math.max(arr, minStart);
  if (node >= m.n) return a;
  for (let w = m.winOff[node]; w < m.winOff[node + 1]; w++) {
    if (a <= m.winEnd[w] + EPS) return Math.max(a, m.winS[w]);
  }
  // Past every window: a soft-window visit starts late, up to its bound.
  return m.lateMax[node] > 0 && a <= m.twL[node] + EPS ? a : Infinity;
}
