import type { Problem, Solution, TravelMatrix } from './types';

export interface CheckResult {
  feasible: boolean;
  errors: string[];
  /** Recomputed from the matrix, not taken from the solution. */
  travelDistance: number;
  travelTime: number;
  /** Recomputed seconds late (summed over stops) and of overtime (summed over routes). */
  lateness: number;
  overtime: number;
  /**
   * Recomputed Σ over routes with visits of max(0, before + w)² − max(0, before)², seconds², where w = arriveEnd −
   * departStart and before is the practitioner's balance offset (workedBeforeSeconds, 0 by default: Σ w²; with a balance
   * target, less the mean of everyone's and the target).
   */
  workingSquares: number;
  /**
   * Recomputed cost of moving visits from their agreed starts: Σ over routed visits with an agreedStart of (movedWeight,
   * else weights.moved, else 0) × minutes between the stop's start and the agreed start, either side.
   */
  moved: number;
}

/** Re-derived here on purpose (the checker shares no code with the search): Problem.balanceTargetSeconds. */
function balanceOffsetsOf(problem: Problem): (p: Problem['practitioners'][number]) => number {
  const target = problem.balanceTargetSeconds;
  if (target === undefined) return (p) => p.workedBeforeSeconds ?? 0;
  const meanBefore = problem.practitioners.reduce((sum, p) => sum + (p.workedBeforeSeconds ?? 0), 0) / problem.practitioners.length;
  return (p) => (p.workedBeforeSeconds ?? 0) - meanBefore - target;
}

/**
 * Verifies a solution against the problem and its travel matrix (over `problemLocations(problem)`),
 * sharing no code with the solver: every visit routed once or reported unassigned; skills, pinned
 * and excluded practitioners and pinned starts; legs that fit the travel times; starts inside a window; shifts,
 * breaks, capacity, max working and travel time. Soft windows: a start after every window only where the
 * visit allows it and within its bound, overtime only within the practitioner's allowance, and each
 * stop's and route's reported lateness / overtime, and the objective's lateness and overtime terms,
 * equal to their recomputation (weights default to 5 and 2 per minute), and the objective's balance term equal to
 * weights.balance × Σ (max(0, before + working)² − max(0, before)²) in hours² (working: leaving the start to arriving at the end,
 * over the routes with visits; before: the practitioner's workedBeforeSeconds, and with a balance target, that less
 * the mean of everyone's and the target). The objective's moved term equals Σ (movedWeight or weights.moved) × minutes each
 * routed visit starts away from its agreedStart.
 */
export function checkSolution(problem: Problem, solution: Solution, matrix: TravelMatrix, tolerance = 1e-6): CheckResult {
  const errors: string[] = [];
  const nV = problem.visits.length;
  const visitIndex = new Map(problem.visits.map((v, i) => [v.id, i]));
  const practitionerIndex = new Map(problem.practitioners.map((p, i) => [p.id, i]));
  const seen = new Map<string, string>();
  const tol = (x: number) => tolerance * Math.max(1, Math.abs(x));
  const balanceOffset = balanceOffsetsOf(problem);
  const leg = (a: number, b: number) => ({
    time: matrix.durations[a * matrix.size + b],
    dist: matrix.distances[a * matrix.size + b],
  });
  let totalDistance = 0;
  let totalTime = 0;
  let totalLate = 0;
  let totalOvertime = 0;
  let workingSquares = 0;
  let moved = 0;
  // Reported lateness / overtime may differ from the recomputation by the timing tolerance.
  let lateSlack = 0;
  let overtimeSlack = 0;
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

  const routedPractitioners = new Set<string>();
  for (const route of solution.routes) {
    const pi = practitionerIndex.get(route.practitionerId);
    const where = `route ${route.practitionerId}`;
    if (pi === undefined) {
      errors.push(`${where}: unknown practitioner`);
      continue;
    }
    if (routedPractitioners.has(route.practitionerId)) errors.push(`${where}: practitioner has two routes`);
    routedPractitioners.add(route.practitionerId);
    if (!route.stops.length) continue;
    const p = problem.practitioners[pi];
    const startLoc = nV + 2 * pi;
    const endLoc = startLoc + 1;
    let prevLoc = startLoc;
    let prevDeparture = route.departStart;
    let load = 0;
    let travelTime = 0;
    let travelDistance = 0;
    if (route.departStart < p.shift.start - tol(p.shift.start)) errors.push(`${where}: leaves before the shift starts`);
    const brk = route.break;
    if (p.break && !brk) errors.push(`${where}: practitioner's break is missing`);
    if (!p.break && brk) errors.push(`${where}: break reported for a practitioner without one`);
    if (p.break && brk) {
      if (brk.start < p.break.earliestStart - tol(brk.start) || brk.start > p.break.latestStart + tol(brk.start)) {
        errors.push(`${where}: break starts at ${brk.start}, outside [${p.break.earliestStart}, ${p.break.latestStart}]`);
      }
      if (Math.abs(brk.end - brk.start - p.break.duration) > tol(brk.end)) errors.push(`${where}: break has the wrong length`);
    }
    const breakAfterIndex = brk ? (brk.afterVisitId === null ? -1 : route.stops.findIndex((s) => s.visitId === brk.afterVisitId)) : -2;
    if (brk && brk.afterVisitId !== null && breakAfterIndex < 0) errors.push(`${where}: break placed after a visit not on the route`);

    route.stops.forEach((stop, k) => {
      const vi = visitIndex.get(stop.visitId);
      const at = `${where}, stop ${k} (${stop.visitId})`;
      if (vi === undefined) {
        errors.push(`${at}: unknown visit`);
        return;
      }
      if (seen.has(stop.visitId)) errors.push(`${at}: visit already on ${seen.get(stop.visitId)}`);
      seen.set(stop.visitId, where);
      const visit = problem.visits[vi];
      if (visit.requiredSkill !== undefined && !(p.skills ?? []).includes(visit.requiredSkill)) {
        errors.push(`${at}: practitioner lacks skill ${visit.requiredSkill}`);
      }
      if (visit.pinnedPractitionerId !== undefined && visit.pinnedPractitionerId !== p.id) {
        errors.push(`${at}: visit is pinned to ${visit.pinnedPractitionerId}`);
      }
      if (visit.excludedPractitionerIds?.includes(p.id)) errors.push(`${at}: practitioner ${p.id} is excluded from this visit`);
      let ready = prevDeparture;
      if (brk && breakAfterIndex === k - 1) {
        // A break before the first visit is taken at the start location, within the shift.
        const earliest = k === 0 ? p.shift.start : prevDeparture;
        if (brk.start < earliest - tol(brk.start)) errors.push(`${at}: break starts before ${k === 0 ? 'the shift' : 'the previous departure'}`);
        ready = Math.max(ready, brk.end);
      }
      const l = leg(prevLoc, vi);
      if (stop.arrival < ready + l.time - tol(stop.arrival)) {
        errors.push(`${at}: arrives at ${stop.arrival}, but cannot arrive before ${ready + l.time}`);
      }
      if (stop.start < stop.arrival - tol(stop.start)) errors.push(`${at}: starts before arriving`);
      if (Math.abs(stop.departure - stop.start - visit.duration) > tol(stop.departure)) {
        errors.push(`${at}: departure is not start + duration`);
      }
      if (visit.pinnedStart !== undefined) {
        if (Math.abs(stop.start - visit.pinnedStart) > tol(stop.start)) errors.push(`${at}: pinned start ${visit.pinnedStart} moved to ${stop.start}`);
      } else if (visit.timeWindows && visit.timeWindows.length) {
        const inside = visit.timeWindows.some((w) => stop.start >= w.start - tol(w.start) && stop.start <= w.end + tol(w.end));
        const lastEnd = Math.max(...visit.timeWindows.map((w) => w.end));
        let late = 0;
        if (!inside) {
          const bound = lastEnd + 60 * (visit.maxLatenessMinutes ?? 60);
          if (!visit.allowLate) errors.push(`${at}: starts at ${stop.start}, outside every time window`);
          else if (stop.start < lastEnd) errors.push(`${at}: starts at ${stop.start}, between time windows`);
          else if (stop.start > bound + tol(bound)) errors.push(`${at}: starts at ${stop.start}, later than the allowed ${bound}`);
          else late = stop.start - lastEnd;
        }
        totalLate += late;
        lateSlack += tol(lastEnd);
        if (Math.abs((stop.lateness ?? 0) - late) > tol(lastEnd)) errors.push(`${at}: reports lateness ${stop.lateness}, recomputed ${late}`);
      }
      if ((visit.pinnedStart !== undefined || !visit.timeWindows?.length) && (stop.lateness ?? 0) !== 0) {
        errors.push(`${at}: reports lateness ${stop.lateness} on a visit without a window to be late for`);
      }
      if (visit.agreedStart !== undefined) {
        moved += ((visit.movedWeight ?? problem.weights?.moved ?? 0) * Math.abs(stop.start - visit.agreedStart)) / 60;
      }
      load += visit.demand ?? 0;
      travelTime += l.time;
      travelDistance += l.dist;
      prevLoc = vi;
      prevDeparture = stop.departure;
    });
    let ready = prevDeparture;
    if (brk && breakAfterIndex === route.stops.length - 1) {
      if (brk.start < prevDeparture - tol(brk.start)) errors.push(`${where}: final break starts before the last departure`);
      ready = Math.max(ready, brk.end);
    }
    const back = leg(prevLoc, endLoc);
    travelTime += back.time;
    travelDistance += back.dist;
    if (route.arriveEnd < ready + back.time - tol(route.arriveEnd)) errors.push(`${where}: arrives at the end location too early`);
    const latestEnd = p.shift.end + 60 * (p.maxOvertimeMinutes ?? 0);
    if (route.arriveEnd > latestEnd + tol(latestEnd)) {
      errors.push(`${where}: ends at ${route.arriveEnd}, after the shift ends at ${p.shift.end} plus its overtime allowance`);
    }
    const overtime = Math.max(0, route.arriveEnd - p.shift.end);
    totalOvertime += overtime;
    overtimeSlack += tol(p.shift.end);
    if (Math.abs((route.overtime ?? 0) - overtime) > tol(p.shift.end)) errors.push(`${where}: reports overtime ${route.overtime}, recomputed ${overtime}`);
    if (p.capacity !== undefined && load > p.capacity + tol(load)) errors.push(`${where}: load ${load} exceeds capacity ${p.capacity}`);
    if (p.maxWorkingTime !== undefined && route.arriveEnd - route.departStart > p.maxWorkingTime + tol(p.maxWorkingTime)) {
      errors.push(`${where}: works ${route.arriveEnd - route.departStart}s, more than ${p.maxWorkingTime}s`);
    }
    if (p.maxTravelTime !== undefined && travelTime > p.maxTravelTime + tol(p.maxTravelTime)) {
      errors.push(`${where}: travels ${travelTime}s, more than ${p.maxTravelTime}s`);
    }
    totalDistance += travelDistance;
    totalTime += travelTime;
    const working = route.arriveEnd - route.departStart;
    workingSquares += Math.max(0, balanceOffset(p) + working) ** 2 - Math.max(0, balanceOffset(p)) ** 2;
  }

  for (const u of solution.unassigned) {
    if (!visitIndex.has(u.visitId)) errors.push(`unassigned ${u.visitId}: unknown visit`);
    else if (seen.has(u.visitId)) errors.push(`unassigned ${u.visitId}: also routed on ${seen.get(u.visitId)}`);
    else seen.set(u.visitId, 'unassigned');
    if (!u.reason) errors.push(`unassigned ${u.visitId}: no reason given`);
  }
  for (const v of problem.visits) if (!seen.has(v.id)) errors.push(`visit ${v.id} is neither routed nor reported unassigned`);

  const weights = problem.weights ?? {};
  const obj = solution.objective;
  if (obj && obj.lateness !== undefined) {
    const lateness = ((weights.lateness ?? 5) * totalLate) / 60;
    const slack = ((weights.lateness ?? 5) * lateSlack) / 60;
    if (!same(obj.lateness, lateness) && Math.abs(obj.lateness - lateness) > slack) errors.push(`objective: lateness ${obj.lateness}, recomputed ${lateness}`);
  }
  if (obj && obj.overtime !== undefined) {
    const overtime = ((weights.overtime ?? 2) * totalOvertime) / 60;
    const slack = ((weights.overtime ?? 2) * overtimeSlack) / 60;
    if (!same(obj.overtime, overtime) && Math.abs(obj.overtime - overtime) > slack) errors.push(`objective: overtime ${obj.overtime}, recomputed ${overtime}`);
  }
  if (obj && obj.balance !== undefined) {
    const balance = ((weights.balance ?? 0) * workingSquares) / 3600 ** 2;
    if (!same(obj.balance, balance)) errors.push(`objective: balance ${obj.balance}, recomputed ${balance}`);
  }
  if (obj && obj.moved !== undefined && !same(obj.moved, moved)) errors.push(`objective: moved ${obj.moved}, recomputed ${moved}`);
  return {
    feasible: errors.length === 0,
    errors,
    travelDistance: totalDistance,
    travelTime: totalTime,
    lateness: totalLate,
    overtime: totalOvertime,
    workingSquares,
    moved,
  };
}
