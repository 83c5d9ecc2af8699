import { balanceTerm, type CoreModel } from './core/model';
import { pulledBounds, simulate, simulateCost, simulatePriced, type Schedule } from './core/routes';
import type { ObjectiveBreakdown, Problem, Route, Stop, UnassignedVisit } from './types';

const newSchedule = (): Schedule => ({
  departStart: 0,
  arrival: [],
  start: [],
  lateness: [],
  overtime: 0,
  breakAfter: -1,
  breakStart: 0,
  arriveEnd: 0,
});

/**
 * Times for vehicle v's visit sequence. Each start is first as early as it can be, then moved up to the next multiple
 * of `step` where the route stays feasible at the same cost (otherwise it is kept exact). With preferred starts (the
 * times clients were told), each visit in turn is then delayed towards its own as far as the route allows at the
 * same cost and with no more starts off the step; travel never changes, only waiting. With balance on, the cost a
 * preferred start is weighed at includes the balance term, so it never lengthens the working day. Visits priced for
 * moving from their agreed starts start as `simulatePriced` schedules them, before the rounding.
 */
export function scheduleRoute(m: CoreModel, v: number, visits: number[], step: number, preferredStart?: (node: number) => number | undefined): Schedule {
  const seq = [m.startNode[v], ...visits, m.endNode[v]];
  const offStep = (schedule: Schedule) => (step > 0 ? schedule.start.filter((start) => Math.abs(start - Math.round(start / step) * step) > 1e-6).length : 0);

  /** The schedule with these lower bounds on the starts, each start then rounded up where that costs nothing. */
  const evaluate = (bounds: Float64Array): { schedule: Schedule; cost: number } | null => {
    const local = Float64Array.from(bounds);
    let schedule = newSchedule();
    // Visits priced for moving start as close to their agreed starts as the route allows (as the search priced them).
    let cost = simulatePriced(m, v, seq, seq.length, schedule, local);
    if (cost === Infinity) return null;
    const pull = pulledBounds(seq.length);
    if (pull) local.set(pull);
    if (step > 0) {
      const trial = newSchedule();
      for (let i = 1; i <= visits.length; i++) {
        const start = schedule.start[i - 1];
        const rounded = Math.ceil(start / step - 1e-9) * step;
        if (Math.abs(rounded - start) > 1e-9) {
          local[i] = rounded;
          let trialCost = simulateCost(m, v, seq, seq.length, trial, local);
          // A visit priced for moving may have been pulled to the latest start its route allows, off the step: one
          // step earlier is on it, for at most a step's price of moving (the client is told a time on the step).
          const node = seq[i];
          if (trialCost > cost + 1e-9 && m.movedCost[node] > 0) {
            local[i] = rounded - step;
            trialCost = simulateCost(m, v, seq, seq.length, trial, local);
            const onStep = Math.abs(trial.start[i - 1] - (rounded - step)) <= 1e-9;
            if (!onStep || trialCost > cost + m.movedCost[node] * step + 1e-9) trialCost = Infinity;
            else cost = trialCost;
          }
          if (trialCost <= cost + 1e-9) {
            schedule = { ...trial, arrival: [...trial.arrival], start: [...trial.start], lateness: [...trial.lateness] };
            cost = trialCost;
          }
        }
        local[i] = schedule.start[i - 1];
      }
    }
    return { schedule, cost };
  };

  const bounds = new Float64Array(seq.length).fill(-Infinity);
  let best = evaluate(bounds);
  if (!best) throw new Error(`internal: route of vehicle ${v} is infeasible`);
  if (!preferredStart || !visits.length) return best.schedule;
  const withBalance = ({ schedule, cost }: { schedule: Schedule; cost: number }) =>
    cost + balanceTerm(m, v, schedule.arriveEnd - schedule.departStart);
  /** Keeps the schedule with visit i starting no earlier than `start` when it costs nothing more and adds no off-step start. */
  const tryStart = (i: number, start: number): boolean => {
    const kept = bounds[i];
    bounds[i] = start;
    const trial = evaluate(bounds);
    if (trial && withBalance(trial) <= withBalance(best!) + 1e-9 && offStep(trial.schedule) <= offStep(best!.schedule)) {
      best = trial;
      return true;
    }
    bounds[i] = kept;
    return false;
  };
  const grain = step > 0 ? step : 60;
  for (let i = 1; i <= visits.length; i++) {
    const wanted = preferredStart(seq[i]);
    const now = best.schedule.start[i - 1];
    if (wanted !== undefined && wanted > now + 1e-9 && !tryStart(i, wanted)) {
      // As late towards it as the route allows: halve the gap, on the step, while it does not fit (a dozen tries at most).
      let [fits, tooLate] = [now, wanted];
      for (let k = 0; k < 12; k++) {
        const middle = Math.floor((fits + tooLate) / 2 / grain) * grain;
        if (middle <= fits + 1e-9 || middle >= tooLate - 1e-9) break;
        if (tryStart(i, middle)) fits = middle;
        else tooLate = middle;
      }
    }
    bounds[i] = best.schedule.start[i - 1];
  }
  return best.schedule;
}

export function buildRoutes(problem: Problem, m: CoreModel, routes: number[][]): Route[] {
  const step = problem.arrivalStepSeconds ?? 300;
  return problem.practitioners.map((p, v) => {
    const visits = routes[v];
    // An agreed start is preferred where no preferred start is given (at equal cost, e.g. when moving is not priced).
    const sched = scheduleRoute(m, v, visits, step, (node) => problem.visits[node]?.preferredStart ?? problem.visits[node]?.agreedStart);
    const stops: Stop[] = [];
    let prev = m.startNode[v];
    let travelTime = 0;
    let travelDistance = 0;
    visits.forEach((c, i) => {
      const leg = m.dur[prev * m.size + c];
      const legDist = m.dist[prev * m.size + c];
      travelTime += leg;
      travelDistance += legDist;
      stops.push({
        visitId: problem.visits[c].id,
        arrival: sched.arrival[i],
        start: sched.start[i],
        departure: sched.start[i] + m.service[c],
        waiting: sched.start[i] - sched.arrival[i],
        travelTime: leg,
        travelDistance: legDist,
        lateness: sched.lateness[i],
      });
      prev = c;
    });
    const returnTravelTime = m.dur[prev * m.size + m.endNode[v]];
    const returnTravelDistance = m.dist[prev * m.size + m.endNode[v]];
    const hasBreak = visits.length > 0 && sched.breakAfter >= 0 && m.breakDur[v] >= 0;
    return {
      practitionerId: p.id,
      stops,
      departStart: sched.departStart,
      arriveEnd: sched.arriveEnd,
      returnTravelTime,
      returnTravelDistance,
      break: hasBreak
        ? {
            start: sched.breakStart,
            end: sched.breakStart + m.breakDur[v],
            afterVisitId: sched.breakAfter === 0 ? null : problem.visits[visits[sched.breakAfter - 1]].id,
          }
        : null,
      travelTime: travelTime + returnTravelTime,
      travelDistance: travelDistance + returnTravelDistance,
      overtime: visits.length ? sched.overtime : 0,
    };
  });
}

/** Why visit `c` is left out of the planned `routes` (vehicle → its visits). */
export function explainUnassigned(problem: Problem, m: CoreModel, c: number, routes: readonly number[][]): UnassignedVisit {
  const visit = problem.visits[c];
  const V = m.vehicles;
  const eligible: number[] = [];
  for (let v = 0; v < V; v++) if (m.extra[c * V + v] !== Infinity) eligible.push(v);
  if (!eligible.length) {
    if (visit.pinnedPractitionerId !== undefined) {
      return {
        visitId: visit.id,
        reason: 'pinned-practitioner-unavailable',
        message: `pinned practitioner ${visit.pinnedPractitionerId} cannot do this visit (lacks skill "${visit.requiredSkill}")`,
      };
    }
    return {
      visitId: visit.id,
      reason: 'no-practitioner-with-skill',
      message: visit.excludedPractitionerIds?.length
        ? 'every practitioner who could do it is excluded from it'
        : `no practitioner has the required skill "${visit.requiredSkill}"`,
    };
  }
  const alone = eligible.filter((v) => simulate(m, v, [m.startNode[v], c, m.endNode[v]], 3, null));
  if (!alone.length) {
    return {
      visitId: visit.id,
      reason: visit.pinnedPractitionerId !== undefined ? 'pinned-practitioner-unavailable' : 'outside-every-shift',
      message:
        visit.pinnedPractitionerId !== undefined
          ? `pinned practitioner ${visit.pinnedPractitionerId} cannot reach it within its time windows and shift`
          : 'no eligible practitioner can serve it within its time windows, even on an otherwise empty day',
    };
  }
  const load = (v: number) => routes[v].reduce((sum, other) => sum + m.demand[other], 0);
  const full = alone.filter((v) => load(v) + m.demand[c] > m.capacity[v] + 1e-9);
  if (m.demand[c] > 0 && full.length === alone.length) {
    return {
      visitId: visit.id,
      reason: 'capacity-reached',
      message: 'every eligible practitioner who could do it already has as many visits as their capacity allows',
      practitionerIds: full.map((v) => problem.practitioners[v].id),
    };
  }
  return {
    visitId: visit.id,
    reason: 'no-room-in-schedules',
    message: 'every eligible practitioner could do it alone, but not alongside the visits they already have',
  };
}

/**
 * Objective terms of the planned routes. Lateness, overtime, moves from the agreed starts and working time (for balance)
 * are taken from the reported (rounded) schedules when given, else from the schedule the search priced.
 */
export function objectiveOf(m: CoreModel, routes: number[][], unassigned: number[], planned?: Route[]): ObjectiveBreakdown {
  let travelCost = 0;
  let lateness = 0;
  let overtime = 0;
  let travelTime = 0;
  let travelDistance = 0;
  let continuity = 0;
  let balance = 0;
  let moved = 0;
  routes.forEach((visits, v) => {
    if (!visits.length) return;
    let prev = m.startNode[v];
    let tt = 0;
    let dd = 0;
    for (const c of [...visits, m.endNode[v]]) {
      tt += m.dur[prev * m.size + c];
      dd += m.dist[prev * m.size + c];
      if (c < m.n) continuity += m.extra[c * m.vehicles + v];
      prev = c;
    }
    travelTime += tt;
    travelDistance += dd;
    travelCost += m.costTime[v] * tt + m.costDist[v] * dd;
    let late = 0;
    let ot: number;
    let work: number;
    if (planned) {
      for (const s of planned[v].stops) late += s.lateness;
      planned[v].stops.forEach((s, i) => (moved += m.movedCost[visits[i]] * Math.abs(s.start - m.agreed[visits[i]])));
      ot = planned[v].overtime;
      work = planned[v].arriveEnd - planned[v].departStart;
    } else {
      const sched = newSchedule();
      simulatePriced(m, v, [m.startNode[v], ...visits, m.endNode[v]], visits.length + 2, sched);
      for (const x of sched.lateness) late += x;
      sched.start.forEach((start, i) => (moved += m.movedCost[visits[i]] * Math.abs(start - m.agreed[visits[i]])));
      ot = sched.overtime;
      work = sched.arriveEnd - sched.departStart;
    }
    lateness += m.lateCost * late;
    overtime += m.otCost * ot;
    balance += balanceTerm(m, v, work);
  });
  let unassignedCost = 0;
  for (const c of unassigned) unassignedCost += m.penalty[c];
  return {
    total: travelCost + continuity + lateness + overtime + balance + moved + unassignedCost,
    travelCost,
    travelTime,
    travelDistance,
    continuity,
    lateness,
    overtime,
    balance,
    moved,
    unassigned: unassignedCost,
  };
}
