import { Rng } from '../rng';
import { balanceTerm, overTarget, type CoreModel } from './model';
import { RouteState } from './routes';

export interface SearchParams {
  /** Average number of visits removed per ruin (SISR's c̄). */
  avgRemoved: number;
  /** Longest string removed from one route (SISR's L_max). */
  maxString: number;
  /** Probability of the split-string variant, and its depth parameter. */
  splitRate: number;
  splitDepth: number;
  /** Probability of skipping a candidate position during recreate ("blinks"). */
  blinkRate: number;
  /** Start and final temperatures as multiples of the average leg cost of the first solution. */
  t0: number;
  tf: number;
  /** Probability that a ruin also empties one whole route (helps shed a vehicle). */
  routeRemoval: number;
  /** Run 2-opt* (route tail exchange) local search on every candidate that will be accepted (1) or not (0). */
  twoOptStar: number;
  /** 2-opt* only tries new edges to this many nearest neighbours. */
  granularity: number;
  /**
   * Above this many visits, a visit is only offered to routes holding one of its `granularity * 2`
   * nearest neighbours (plus empty routes and its pinned/previous practitioner): scanning every
   * route of a large day costs a cache miss per position.
   */
  restrictAbove: number;
}

export const DEFAULT_SEARCH_PARAMS: SearchParams = {
  avgRemoved: 10,
  maxString: 10,
  splitRate: 0.5,
  splitDepth: 0.01,
  blinkRate: 0.01,
  t0: 1,
  tf: 0.02,
  routeRemoval: 0.05,
  twoOptStar: 1,
  granularity: 20,
  restrictAbove: 200,
};

/**
 * Ruin-and-recreate search after SISR (Christiaens & Vanden Berghe, "Slack Induction by String
 * Removals", Transportation Science 2020): remove a few adjacent strings of visits from nearby routes,
 * reinsert them greedily at their cheapest feasible positions (in one of several orders, skipping
 * positions at random), and accept by simulated annealing. Unassigned visits cost their penalty, so
 * the search trades them off against travel. Only the touched routes are saved and restored.
 */
export class Search {
  readonly rs: RouteState;
  readonly rng: Rng;
  readonly params: SearchParams;
  private readonly neighbors: Int32Array;
  private readonly K: number;
  private readonly removed: Uint8Array;
  private readonly pool: Int32Array;
  private poolLen = 0;
  private readonly savedPool: Int32Array;
  private savedPoolLen = 0;
  private readonly touched: Int32Array;
  private touchedLen = 0;
  private readonly touchedMark: Int32Array;
  private readonly savedNodes: Int32Array;
  private readonly savedLen: Int32Array;
  private readonly savedCost: Float64Array;
  private readonly typeMark: Int32Array;
  /** Routes changed by accepted iterations since the best solution was last saved. */
  private readonly dirty: Uint8Array;
  private readonly dirtyList: Int32Array;
  private dirtyLen = 0;
  private readonly routeMark: Int32Array;
  /** Routes a visit is offered in one pass of a restricted recreate; every route otherwise. */
  private readonly candidates: Int32Array;
  private readonly allRoutes: Int32Array;
  /** One empty route of each vehicle type (restricted recreate). */
  private readonly emptyRoutes: Int32Array;
  /** iterStamp of the iteration in which a visit entered already unassigned (offered every route). */
  private readonly wasUnassigned: Int32Array;
  private readonly sortKey: Float64Array;
  private readonly farKey: Float64Array;
  private readonly tightKey: Float64Array;
  /** Scratch: the recreate order, and the two new routes of a 2-opt* exchange. */
  private readonly order: Int32Array;
  private readonly scratchA: Int32Array;
  private readonly scratchB: Int32Array;
  private stamp = 1;
  private iterStamp = 1;
  cost = 0;
  bestCost = Infinity;
  readonly bestNodes: Int32Array;
  readonly bestLen: Int32Array;
  readonly avgLegCost: number;
  iterations = 0;

  constructor(readonly m: CoreModel, seed: number, params: Partial<SearchParams> = {}) {
    this.params = { ...DEFAULT_SEARCH_PARAMS, ...params };
    this.rng = new Rng(seed);
    this.rs = new RouteState(m);
    const n = m.n;
    const V = m.vehicles;
    this.K = Math.min(Math.max(n - 1, 0), 100);
    this.neighbors = buildNeighbors(m, this.K);
    this.removed = new Uint8Array(n);
    this.pool = new Int32Array(n);
    this.savedPool = new Int32Array(n);
    this.touched = new Int32Array(V);
    this.touchedMark = new Int32Array(V);
    this.savedNodes = new Int32Array(this.rs.nodes.length);
    this.savedLen = new Int32Array(V);
    this.savedCost = new Float64Array(V);
    this.typeMark = new Int32Array(V + m.vehicles + 1);
    this.routeMark = new Int32Array(V);
    this.candidates = new Int32Array(V);
    this.allRoutes = Int32Array.from({ length: V }, (_, r) => r);
    this.emptyRoutes = new Int32Array(V);
    this.dirty = new Uint8Array(V);
    this.dirtyList = new Int32Array(V);
    this.wasUnassigned = new Int32Array(n);
    this.bestNodes = new Int32Array(this.rs.nodes.length);
    this.bestLen = new Int32Array(V);
    this.sortKey = new Float64Array(n);
    this.farKey = new Float64Array(n);
    this.tightKey = new Float64Array(n);
    this.order = new Int32Array(n);
    this.scratchA = new Int32Array(n);
    this.scratchB = new Int32Array(n);
    for (let c = 0; c < n; c++) {
      let far = 0;
      for (let v = 0; v < V; v++) far += m.dist[m.startNode[v] * m.size + c];
      this.farKey[c] = V ? far / V : 0;
      this.tightKey[c] = m.twL[c] - m.twE[c];
    }
    // Construction: every visit, locked ones first, through the recreate step.
    for (let c = 0; c < n; c++) this.pool[this.poolLen++] = c;
    this.cost = 0;
    for (let c = 0; c < n; c++) this.cost += m.penalty[c];
    this.iterStamp++;
    this.recreate(true);
    this.bestCost = Infinity;
    for (let r = 0; r < V; r++) this.markDirty(r);
    this.saveBest();
    let legs = 0;
    let travel = 0;
    for (let r = 0; r < V; r++) {
      if (this.rs.len[r]) {
        legs += this.rs.len[r] + 1;
        travel += this.rs.cost[r] - this.rs.balanceCost[r];
      }
    }
    this.avgLegCost = legs ? travel / legs : 1;
  }

  /** One ruin-and-recreate step at temperature T. Returns true when it found a new best. */
  iterate(temperature: number): boolean {
    this.iterations++;
    this.iterStamp++;
    this.touchedLen = 0;
    this.savedPoolLen = this.poolLen;
    // Plain loops rather than set(subarray(...)): a subarray is an allocation, and this runs every iteration.
    for (let k = 0; k < this.poolLen; k++) {
      const c = this.pool[k];
      this.savedPool[k] = c;
      this.wasUnassigned[c] = this.iterStamp;
    }
    const before = this.cost;
    this.ruin();
    this.recreate(false);
    const threshold = before - temperature * Math.log(this.rng.next());
    if (this.cost < threshold && this.params.twoOptStar) this.twoOptStar();
    if (this.cost < threshold) {
      for (let k = 0; k < this.touchedLen; k++) this.markDirty(this.touched[k]);
      if (this.cost < this.bestCost - 1e-9) {
        this.saveBest();
        return true;
      }
      return false;
    }
    this.restore(before);
    return false;
  }

  private touch(r: number): void {
    if (this.touchedMark[r] === this.iterStamp) return;
    this.touchedMark[r] = this.iterStamp;
    this.touched[this.touchedLen++] = r;
    const rs = this.rs;
    const base = r * rs.stride;
    const nodes = rs.nodes, saved = this.savedNodes;
    for (let i = base, end = base + rs.len[r] + 2; i < end; i++) saved[i] = nodes[i];
    this.savedLen[r] = rs.len[r];
    this.savedCost[r] = rs.cost[r];
  }

  private restore(cost: number): void {
    const rs = this.rs;
    for (let k = 0; k < this.touchedLen; k++) {
      const r = this.touched[k];
      const base = r * rs.stride;
      for (let i = 1; i <= rs.len[r]; i++) rs.routeOf[rs.nodes[base + i]] = -1;
    }
    for (let k = 0; k < this.touchedLen; k++) {
      const r = this.touched[k];
      const base = r * rs.stride;
      for (let i = base, end = base + this.savedLen[r] + 2; i < end; i++) rs.nodes[i] = this.savedNodes[i];
      rs.len[r] = this.savedLen[r];
      rs.update(r);
    }
    this.poolLen = this.savedPoolLen;
    for (let k = 0; k < this.poolLen; k++) {
      this.pool[k] = this.savedPool[k];
      rs.routeOf[this.pool[k]] = -1;
      rs.posOf[this.pool[k]] = -1;
    }
    this.cost = cost;
  }

  private markDirty(r: number): void {
    if (this.dirty[r]) return;
    this.dirty[r] = 1;
    this.dirtyList[this.dirtyLen++] = r;
  }

  /** Copies the routes changed since the last best into the best solution (all of them the first time). */
  private saveBest(): void {
    this.bestCost = this.cost;
    const rs = this.rs;
    const nodes = rs.nodes, best = this.bestNodes;
    for (let k = 0; k < this.dirtyLen; k++) {
      const r = this.dirtyList[k];
      this.dirty[r] = 0;
      const base = r * rs.stride;
      for (let i = base, end = base + rs.len[r] + 2; i < end; i++) best[i] = nodes[i];
      this.bestLen[r] = rs.len[r];
    }
    this.dirtyLen = 0;
  }

  /** Seconds of travel of the best solution found so far (every non-empty route, return legs included). */
  bestTravelTime(): number {
    const m = this.m;
    const stride = this.rs.stride;
    let total = 0;
    for (let r = 0; r < m.vehicles; r++) {
      const len = this.bestLen[r];
      if (!len) continue;
      const base = r * stride;
      for (let i = 0; i <= len; i++) total += m.dur[this.bestNodes[base + i] * m.size + this.bestNodes[base + i + 1]];
    }
    return total;
  }

  /** The best solution's visits per vehicle (to share with another search of the same model). */
  bestRoutes(): number[][] {
    const routes: number[][] = [];
    for (let r = 0; r < this.m.vehicles; r++) routes.push(Array.from(this.bestVisits(r)));
    return routes;
  }

  /**
   * Continues from another search's solution (visits per vehicle of the same model, feasible): it becomes
   * the current solution, and the best when it is better. Its cost is recomputed here, not trusted.
   */
  adopt(routes: readonly (readonly number[])[]): void {
    const m = this.m;
    this.load((r) => routes[r]);
    let cost = 0;
    for (let r = 0; r < m.vehicles; r++) {
      cost += this.rs.cost[r];
      for (const c of routes[r]) cost += m.extra[c * m.vehicles + r];
    }
    for (let k = 0; k < this.poolLen; k++) cost += m.penalty[this.pool[k]];
    this.cost = cost;
    for (let r = 0; r < m.vehicles; r++) this.markDirty(r);
    if (cost < this.bestCost - 1e-9) this.saveBest();
  }

  /** Loads the best solution found into the route state. */
  restoreBest(): void {
    this.load((r) => this.bestVisits(r));
    this.cost = this.bestCost;
    for (let k = 0; k < this.dirtyLen; k++) this.dirty[this.dirtyList[k]] = 0;
    this.dirtyLen = 0;
  }

  private bestVisits(r: number): Int32Array {
    const base = r * this.rs.stride;
    return this.bestNodes.subarray(base + 1, base + 1 + this.bestLen[r]);
  }

  /** Makes the given visits each vehicle's route and every other visit unassigned (cost left to the caller). */
  private load(visitsOf: (r: number) => ArrayLike<number>): void {
    const rs = this.rs;
    for (let r = 0; r < this.m.vehicles; r++) rs.setRoute(r, visitsOf(r));
    this.poolLen = 0;
    for (let c = 0; c < this.m.n; c++) if (rs.routeOf[c] < 0) this.pool[this.poolLen++] = c;
  }

  private ruin(): void {
    const m = this.m;
    const rs = this.rs;
    const rng = this.rng;
    const p = this.params;
    let assigned = 0;
    let used = 0;
    for (let r = 0; r < m.vehicles; r++) {
      if (rs.len[r]) {
        used++;
        assigned += rs.len[r];
      }
    }
    if (!assigned) return;
    const lsMax = Math.min(p.maxString, assigned / used);
    const ksMax = (4 * p.avgRemoved) / (1 + lsMax) - 1;
    const ks = Math.floor(rng.next() * ksMax) + 1;
    let seed = rng.int(m.n);
    if (this.poolLen && rng.next() < 0.5) {
      // Make room where it is missing: seed next to an unassigned visit.
      const u = this.pool[rng.int(this.poolLen)];
      for (let g = 0; g < this.K; g++) {
        const c = this.neighbors[u * this.K + g];
        if (rs.routeOf[c] >= 0) {
          seed = c;
          break;
        }
      }
    }
    for (let tries = 0; rs.routeOf[seed] < 0 && tries < 20; tries++) seed = rng.int(m.n);
    if (rs.routeOf[seed] < 0) return;
    const removed = this.removed;
    const stamp = this.iterStamp;
    let ruined = 0;
    if (used > 1 && rng.next() < p.routeRemoval) {
      // Empty a random route, preferring short ones (two draws, keep the shorter).
      let r1 = rs.routeOf[seed];
      const c2 = rng.int(m.n);
      const r2 = rs.routeOf[c2];
      if (r2 >= 0 && rs.len[r2] < rs.len[r1]) r1 = r2;
      this.touch(r1);
      ruined++;
      const base = r1 * rs.stride;
      let count = 0;
      for (let i = 1; i <= rs.len[r1]; i++) count += this.flag(rs.nodes[base + i]);
      if (count) {
        const costBefore = rs.cost[r1];
        rs.removeFlagged(r1, removed);
        this.cost += rs.cost[r1] - costBefore;
      }
    }
    for (let k = -1; k < this.K && ruined < ks; k++) {
      const c = k < 0 ? seed : this.neighbors[seed * this.K + k];
      const r = rs.routeOf[c];
      if (r < 0 || this.touchedMark[r] === stamp) continue;
      this.touch(r);
      ruined++;
      const len = rs.len[r];
      const lMax = Math.min(len, lsMax);
      const l = Math.floor(rng.next() * lMax) + 1;
      const pos = rs.posOf[c];
      const base = r * rs.stride;
      let count = 0;
      if (l === len || rng.next() >= p.splitRate) {
        const lo = Math.max(1, pos - l + 1);
        const hi = Math.min(pos, len - l + 1);
        const s = lo + rng.int(hi - lo + 1);
        for (let i = s; i < s + l; i++) count += this.flag(rs.nodes[base + i]);
      } else {
        let keep = 1;
        while (keep < len - l && rng.next() > p.splitDepth) keep++;
        const span = l + keep;
        const lo = Math.max(1, pos - span + 1);
        const hi = Math.min(pos, len - span + 1);
        const s = lo + rng.int(hi - lo + 1);
        const keepAt = s + rng.int(span - keep + 1);
        for (let i = s; i < s + span; i++) {
          if (i >= keepAt && i < keepAt + keep) continue;
          count += this.flag(rs.nodes[base + i]);
        }
      }
      if (count) {
        const costBefore = rs.cost[r];
        rs.removeFlagged(r, removed);
        this.cost += rs.cost[r] - costBefore;
      }
    }
    for (let k = 0; k < this.poolLen; k++) removed[this.pool[k]] = 0;
  }

  /** Flags visit c for removal, adding it to the pool; returns 1 when flagged. */
  private flag(c: number): number {
    const m = this.m;
    if (m.locked[c] || this.removed[c]) return 0;
    this.removed[c] = 1;
    const r = this.rs.routeOf[c];
    this.cost += m.penalty[c] - m.extra[c * m.vehicles + r];
    this.pool[this.poolLen++] = c;
    return 1;
  }

  private recreate(initial: boolean): void {
    const m = this.m;
    const rs = this.rs;
    const rng = this.rng;
    const V = m.vehicles;
    const n = this.poolLen;
    if (!n) return;
    const pool = this.pool;
    const key = this.sortKey;
    const choice = initial ? 4 : rng.int(11);
    // Half the time, visits that were already unassigned get the first pick of positions.
    const unassignedFirst = !initial && rng.next() < 0.5;
    for (let k = 0; k < n; k++) {
      const c = pool[k];
      const tie = rng.next() * 1e-6;
      key[c] =
        (m.locked[c] ? -1e12 : 0) +
        (unassignedFirst && this.wasUnassigned[c] === this.iterStamp ? -1e11 : 0) +
        (choice < 4 ? rng.next() : choice < 8 ? -(m.demand[c] || m.service[c]) : choice < 10 ? -this.farKey[c] : this.tightKey[c]) +
        tie;
    }
    const order = this.order;
    if (n > 64) {
      order.set(Array.from(pool.subarray(0, n)).sort((a, b) => key[a] - key[b]));
    } else {
      // Insertion sort: a ruin removes a few dozen visits at most; no allocation in the hot path.
      for (let k = 0; k < n; k++) {
        const c = pool[k];
        const kc = key[c];
        let j = k - 1;
        while (j >= 0 && key[order[j]] > kc) {
          order[j + 1] = order[j];
          j--;
        }
        order[j + 1] = c;
      }
    }
    const blink = initial ? 0 : this.params.blinkRate;
    const logKeep = Math.log(1 - blink);
    const size = m.size;
    const dur = m.dur, dist = m.dist, twE = m.twE, twL = m.twL, demand = m.demand, service = m.service;
    const nodes = rs.nodes, lens = rs.len, stride = rs.stride;
    const fD = rs.fD, fTW = rs.fTW, fE = rs.fE, fL = rs.fL, fTT = rs.fTT, fDist = rs.fDist, fLoad = rs.fLoad;
    // Legs into c: from c's own row when the matrix is symmetric (p→c = c→p), else down its column.
    const stepP = m.symmetric ? 1 : size;
    const bD = rs.bD, bE = rs.bE, bL = rs.bL, bTT = rs.bTT, bLoad = rs.bLoad;
    const bal = m.balanceCost, balanceOffset = m.balanceOffset;
    const EPS = 1e-7;
    let left = 0;
    let gap = this.nextGap(blink, logKeep);
    const restrict = !initial && m.n > this.params.restrictAbove;
    const near = Math.min(this.K, 2 * this.params.granularity);
    const cand = this.candidates;
    // Restricted: one empty route of each vehicle type, found once per recreate (again after one fills).
    let emptyCount = restrict ? this.findEmptyRoutes() : 0;
    for (let o = 0; o < n; o++) {
      const c = order[o];
      let best = Infinity;
      let bestR = -1;
      let bestI = -1;
      const stamp = ++this.stamp;
      const restrictC = restrict && this.wasUnassigned[c] !== this.iterStamp;
      const rowExtra = c * V;
      const cRow = c * size;
      const cCol = m.symmetric ? cRow : c;
      const ec = twE[c], lc = twL[c], sc = service[c], qc = demand[c];
      const multiC = m.multi[c] === 1 || m.priced[c] === 1;
      // Restricted: the routes of c's nearest neighbours (and empty ones) first; only when none of them
      // can take c (or only an empty one can), the routes of its farther neighbours (pass 1), then every
      // other route (pass 2), rather than leave c out or open a route for it.
      for (let pass = 0; pass < (restrictC ? 3 : 1); pass++) {
        if (pass > 0 && bestR >= 0 && lens[bestR] > 0) break;
        const routes = restrictC ? cand : this.allRoutes;
        const count = restrictC ? this.listRoutesFor(c, pass, stamp, near, emptyCount) : V;
        for (let x = 0; x < count; x++) {
          const r = routes[x];
          const extra = m.extra[rowExtra + r];
          if (extra === Infinity) continue;
          const len = lens[r];
          if (len === 0) {
            const t = m.vtype[r];
            if (this.typeMark[t] === stamp) continue;
            this.typeMark[t] = stamp;
          }
          const a = m.costTime[r], b = m.costDist[r];
          const cap = m.capacity[r] - qc, maxW = m.maxWork[r] + EPS, maxT = m.maxTravel[r] + EPS;
          const complex = multiC || rs.isComplex(r);
          const balR = rs.balanceCost[r];
          const base = r * stride;
          let p = nodes[base];
          for (let k = base; k <= base + len; k++) {
            const q = nodes[k + 1];
            if (gap-- === 0) {
              gap = this.nextGap(blink, logKeep);
              p = q;
              continue;
            }
            const pc = p * stepP + cCol, cq = cRow + q;
            const t1 = dur[pc], t2 = dur[cq];
            // The leg p→q replaced, from the route's prefix sums (no read of p's row).
            let delta = a * (t1 + t2 - (fTT[k + 1] - fTT[k])) + b * (dist[pc] + dist[cq] - (fDist[k + 1] - fDist[k])) + extra;
            p = q;
            if (delta >= best) continue;
            if (fLoad[k] + bLoad[k + 1] > cap) continue;
            const d1 = fD[k] - fTW[k] + t1;
            const E1 = fE[k];
            if (E1 + d1 - lc > EPS) continue;
            const L1 = fL[k];
            const dWT1 = Math.max(ec - d1 - L1, 0);
            const D = fD[k] + sc + t1 + dWT1;
            const E = Math.max(ec - d1, E1) - dWT1;
            const d2 = D + t2;
            if (E + d2 - bL[k + 1] > EPS) continue;
            const L = Math.min(lc - d1, L1);
            const dWT2 = Math.max(bE[k + 1] - d2 - L, 0);
            const work = D + bD[k + 1] + t2 + dWT2;
            if (work > maxW) continue;
            if (fTT[k] + t1 + t2 + bTT[k + 1] > maxT) continue;
            if (bal > 0) {
              // The balance term (balanceTerm) of the route's duration after the insertion, less before.
              delta += bal * overTarget(balanceOffset[r], work) - balR;
              if (delta >= best) continue;
            }
            if (complex) {
              // Exact simulation; on priced routes it adds the change in lateness and overtime cost.
              const exact = rs.insertionDelta(r, k - base, c, Infinity);
              if (exact === Infinity) continue;
              delta = exact + extra;
              if (delta >= best) continue;
            }
            best = delta;
            bestR = r;
            bestI = k - base;
          }
        }
      }
      if (bestR < 0) {
        pool[left++] = c;
        continue;
      }
      this.touch(bestR);
      const opened = lens[bestR] === 0;
      const costBefore = rs.cost[bestR];
      rs.insert(bestR, bestI, c);
      if (restrict && opened) emptyCount = this.findEmptyRoutes();
      this.cost += rs.cost[bestR] - costBefore + m.extra[rowExtra + bestR] - m.penalty[c];
    }
    this.poolLen = left;
  }

  /**
   * Restricted recreate: writes into `candidates` the routes visit c is offered in one pass and returns how
   * many. Pass 0: its `near` nearest neighbours' routes, its pinned/previous practitioner's, one empty route
   * of each type; pass 1: its farther neighbours' routes; pass 2: every other non-empty route. Routes
   * listed are marked (stamp in pass 0, -stamp in pass 1; stamps are positive) so no later pass lists them again.
   */
  private listRoutesFor(c: number, pass: number, stamp: number, near: number, emptyCount: number): number {
    const rs = this.rs;
    const routeMark = this.routeMark;
    const cand = this.candidates;
    let count = 0;
    if (pass === 0) {
      for (let g = 0; g < near; g++) {
        const r = rs.routeOf[this.neighbors[c * this.K + g]];
        if (r >= 0 && Math.abs(routeMark[r]) !== stamp) {
          routeMark[r] = stamp;
          cand[count++] = r;
        }
      }
      const home = this.m.homeVehicle[c];
      if (home >= 0 && Math.abs(routeMark[home]) !== stamp) {
        routeMark[home] = stamp;
        cand[count++] = home;
      }
      for (let e = 0; e < emptyCount; e++) if (Math.abs(routeMark[this.emptyRoutes[e]]) !== stamp) cand[count++] = this.emptyRoutes[e];
    } else if (pass === 1) {
      for (let g = near; g < this.K; g++) {
        const r = rs.routeOf[this.neighbors[c * this.K + g]];
        if (r >= 0 && Math.abs(routeMark[r]) !== stamp) {
          routeMark[r] = -stamp;
          cand[count++] = r;
        }
      }
    } else {
      for (let r = 0; r < this.m.vehicles; r++) if (rs.len[r] && Math.abs(routeMark[r]) !== stamp) cand[count++] = r;
    }
    return count;
  }

  /** Fills emptyRoutes with the first empty route of each vehicle type; returns how many. */
  private findEmptyRoutes(): number {
    const stamp = ++this.stamp;
    let count = 0;
    for (let r = 0; r < this.m.vehicles; r++) {
      if (this.rs.len[r]) continue;
      const t = this.m.vtype[r];
      if (this.typeMark[t] === stamp) continue;
      this.typeMark[t] = stamp;
      this.emptyRoutes[count++] = r;
    }
    return count;
  }

  /** Positions to skip are drawn as geometric gaps rather than one coin flip per position. */
  private nextGap(blink: number, logKeep: number): number {
    return blink > 0 ? Math.floor(Math.log(1 - this.rng.next()) / logKeep) : Infinity;
  }

  /**
   * 2-opt* local search: exchange the tails of a touched route and another route of the same vehicle
   * type (same end location, shift, limits and costs) where the new edge reaches one of the visit's
   * nearest neighbours (granular, as in HGS), first improvement, until no exchange improves.
   * Both new routes are checked in O(1) by merging a forward prefix with the other route's backward suffix.
   * With balance on, an exchange's delta adds the change of both routes' balance terms (their new durations).
   */
  private twoOptStar(): void {
    const m = this.m;
    const rs = this.rs;
    const size = m.size;
    const dur = m.dur, dist = m.dist;
    const nodes = rs.nodes, stride = rs.stride;
    const G = Math.min(this.K, this.params.granularity);
    const EPS = 1e-7;
    const bal = m.balanceCost;
    let improved = true;
    let rounds = 0;
    while (improved && rounds++ < 50) {
      improved = false;
      for (let t = 0; t < this.touchedLen && !improved; t++) {
        const r1 = this.touched[t];
        if (rs.isComplex(r1)) continue;
        const a = m.costTime[r1], b = m.costDist[r1];
        const cap = m.capacity[r1], maxW = m.maxWork[r1] + EPS, maxT = m.maxTravel[r1] + EPS;
        const b1 = r1 * stride;
        const len1 = rs.len[r1];
        // Granular: the new edge p1 → q2 joins a visit to one of its nearest neighbours.
        for (let i = 1; i <= len1 && !improved; i++) {
          const k1 = b1 + i;
          const p1 = nodes[k1], q1 = nodes[k1 + 1];
          for (let g = 0; g < G; g++) {
            const q2 = this.neighbors[p1 * this.K + g];
            const r2 = rs.routeOf[q2];
            if (r2 < 0 || r2 === r1 || m.vtype[r2] !== m.vtype[r1] || rs.isComplex(r2)) continue;
            const k2 = r2 * stride + rs.posOf[q2] - 1;
            const p2 = nodes[k2];
            const p1q2 = p1 * size + q2, p2q1 = p2 * size + q1;
            let delta =
              a * (dur[p1q2] + dur[p2q1] - dur[p1 * size + q1] - dur[p2 * size + q2]) +
              b * (dist[p1q2] + dist[p2q1] - dist[p1 * size + q1] - dist[p2 * size + q2]);
            if (bal === 0 && delta > -1e-9) continue;
            if (rs.fLoad[k1] + rs.bLoad[k2 + 1] > cap || rs.fLoad[k2] + rs.bLoad[k1 + 1] > cap) continue;
            const work1 = this.joinWork(k1, k2 + 1, dur[p1q2], maxW, maxT);
            if (work1 === Infinity) continue;
            const work2 = this.joinWork(k2, k1 + 1, dur[p2q1], maxW, maxT);
            if (work2 === Infinity) continue;
            const j = rs.posOf[q2] - 1;
            if (bal > 0) {
              // r2 keeps j visits and takes len1 - i: it may be left empty (no balance term).
              const empty2 = j === 0 && i === len1;
              delta += balanceTerm(m, r1, work1) + (empty2 ? 0 : balanceTerm(m, r2, work2)) - rs.balanceCost[r1] - rs.balanceCost[r2];
              if (delta > -1e-9) continue;
              const before = rs.cost[r1] + rs.cost[r2];
              this.applyTwoOptStar(r1, i, r2, j);
              this.cost += rs.cost[r1] + rs.cost[r2] - before;
            } else {
              this.applyTwoOptStar(r1, i, r2, j);
              this.cost += delta;
            }
            improved = true;
            break;
          }
        }
      }
    }
  }

  /**
   * The duration of prefix (forward data at index kf) followed by suffix (backward data at kb), Infinity when
   * infeasible.
   */
  private joinWork(kf: number, kb: number, t: number, maxW: number, maxT: number): number {
    const rs = this.rs;
    const d = rs.fD[kf] - rs.fTW[kf] + t;
    if (rs.fE[kf] + d - rs.bL[kb] > 1e-7) return Infinity;
    const dWT = Math.max(rs.bE[kb] - d - rs.fL[kf], 0);
    const work = rs.fD[kf] + rs.bD[kb] + t + dWT;
    if (work > maxW) return Infinity;
    return rs.fTT[kf] + t + rs.bTT[kb] <= maxT ? work : Infinity;
  }

  private applyTwoOptStar(r1: number, i: number, r2: number, j: number): void {
    const rs = this.rs;
    this.touch(r1);
    this.touch(r2);
    // r1 keeps its visits 1..i then takes r2's from j+1; r2 keeps 1..j then takes r1's from i+1.
    const nodes = rs.nodes;
    const b1 = r1 * rs.stride, b2 = r2 * rs.stride;
    const len1 = rs.len[r1], len2 = rs.len[r2];
    const a = this.scratchA, b = this.scratchB;
    let na = 0, nb = 0;
    for (let k = 1; k <= i; k++) a[na++] = nodes[b1 + k];
    for (let k = j + 1; k <= len2; k++) a[na++] = nodes[b2 + k];
    for (let k = 1; k <= j; k++) b[nb++] = nodes[b2 + k];
    for (let k = i + 1; k <= len1; k++) b[nb++] = nodes[b1 + k];
    rs.setRoute(r1, a, na);
    rs.setRoute(r2, b, nb);
  }

  /** Visits currently unassigned. */
  unassigned(): number[] {
    return Array.from(this.pool.subarray(0, this.poolLen));
  }
}

/** For each visit, the K nearest other visits (symmetrised distance), nearest first. */
function buildNeighbors(m: CoreModel, K: number): Int32Array {
  const n = m.n;
  const out = new Int32Array(n * K);
  const idx = new Int32Array(Math.max(n - 1, 0));
  const d = new Float64Array(n);
  for (let c = 0; c < n; c++) {
    for (let j = 0; j < n; j++) d[j] = m.dist[c * m.size + j] + m.dist[j * m.size + c];
    let k = 0;
    for (let j = 0; j < n; j++) if (j !== c) idx[k++] = j;
    if (K < k) selectSmallest(idx, d, K);
    const nearest = Array.from(idx.subarray(0, K)).sort((a, b) => d[a] - d[b] || a - b);
    for (let j = 0; j < K; j++) out[c * K + j] = nearest[j];
  }
  return out;
}

/** Quickselect: moves the k entries of idx with the smallest key[idx] to idx[0..k) (in any order). */
function selectSmallest(idx: Int32Array, key: Float64Array, k: number): void {
  let lo = 0;
  let hi = idx.length - 1;
  while (lo < hi) {
    const pivot = key[idx[(lo + hi) >> 1]];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (key[idx[i]] < pivot) i++;
      while (key[idx[j]] > pivot) j--;
      if (i <= j) {
        const t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        i++;
        j--;
      }
    }
    if (k - 1 <= j) hi = j;
    else if (k - 1 >= i) lo = i;
    else return;
  }
}
