import type { Location, Problem, TimeWindow } from './types';

export interface ValidationError {
  /** Path of the offending field, e.g. `visits[3].timeWindows[0].end`. */
  field: string;
  message: string;
}

export class ProblemValidationError extends Error {
  constructor(readonly errors: ValidationError[]) {
    super(`Invalid problem: ${errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    this.name = 'ProblemValidationError';
  }
}

const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Returns every problem with the input, each naming its field; empty when the problem is valid. */
export function validateProblem(problem: Problem): ValidationError[] {
  const errors: ValidationError[] = [];
  const err = (field: string, message: string) => errors.push({ field, message });
  const planar = problem.coordinates === 'planar';

  const checkNumber = (field: string, v: unknown, opts: { min?: number; optional?: boolean } = {}) => {
    if (v === undefined && opts.optional) return;
    if (!isFiniteNumber(v)) return err(field, `must be a finite number (got ${String(v)})`);
    if (opts.min !== undefined && v < opts.min) err(field, `must be ≥ ${opts.min} (got ${v})`);
  };
  const checkLocation = (field: string, loc: Location | undefined, optional = false) => {
    if (loc === undefined) {
      if (!optional) err(field, 'is required');
      return;
    }
    if (!isFiniteNumber(loc.lat)) err(`${field}.lat`, `must be a finite number (got ${String(loc.lat)})`);
    else if (!planar && (loc.lat < -90 || loc.lat > 90)) err(`${field}.lat`, `must be within [-90, 90] (got ${loc.lat})`);
    if (!isFiniteNumber(loc.lng)) err(`${field}.lng`, `must be a finite number (got ${String(loc.lng)})`);
    else if (!planar && (loc.lng < -180 || loc.lng > 180)) err(`${field}.lng`, `must be within [-180, 180] (got ${loc.lng})`);
  };
  const checkWindow = (field: string, w: TimeWindow | undefined) => {
    if (!w) return err(field, 'is required');
    checkNumber(`${field}.start`, w.start);
    checkNumber(`${field}.end`, w.end);
    if (isFiniteNumber(w.start) && isFiniteNumber(w.end) && w.end < w.start) {
      err(`${field}.end`, `ends (${w.end}) before it starts (${w.start})`);
    }
  };

  if (!Array.isArray(problem.visits)) err('visits', 'must be an array');
  if (!Array.isArray(problem.practitioners)) err('practitioners', 'must be an array');
  if (errors.length) return errors;

  const practitionerIds = new Set<string>();
  problem.practitioners.forEach((p, i) => {
    const f = `practitioners[${i}]`;
    if (typeof p.id !== 'string' || p.id === '') err(`${f}.id`, 'must be a non-empty string');
    else if (practitionerIds.has(p.id)) err(`${f}.id`, `duplicate practitioner id "${p.id}"`);
    else practitionerIds.add(p.id);
    checkLocation(`${f}.startLocation`, p.startLocation);
    checkLocation(`${f}.endLocation`, p.endLocation, true);
    checkWindow(`${f}.shift`, p.shift);
    if (p.break) {
      checkNumber(`${f}.break.earliestStart`, p.break.earliestStart);
      checkNumber(`${f}.break.latestStart`, p.break.latestStart);
      checkNumber(`${f}.break.duration`, p.break.duration, { min: 0 });
      if (p.break.latestStart < p.break.earliestStart) err(`${f}.break.latestStart`, 'is before earliestStart');
    }
    checkNumber(`${f}.maxWorkingTime`, p.maxWorkingTime, { min: 0, optional: true });
    checkNumber(`${f}.maxTravelTime`, p.maxTravelTime, { min: 0, optional: true });
    checkNumber(`${f}.costPerHour`, p.costPerHour, { min: 0, optional: true });
    checkNumber(`${f}.costPerKm`, p.costPerKm, { min: 0, optional: true });
    checkNumber(`${f}.capacity`, p.capacity, { min: 0, optional: true });
    checkNumber(`${f}.maxOvertimeMinutes`, p.maxOvertimeMinutes, { min: 0, optional: true });
    if (p.skills !== undefined && !(Array.isArray(p.skills) && p.skills.every((s) => typeof s === 'string'))) {
      err(`${f}.skills`, 'must be an array of strings');
    }
  });

  const visitIds = new Set<string>();
  problem.visits.forEach((v, i) => {
    const f = `visits[${i}]`;
    if (typeof v.id !== 'string' || v.id === '') err(`${f}.id`, 'must be a non-empty string');
    else if (visitIds.has(v.id)) err(`${f}.id`, `duplicate visit id "${v.id}"`);
    else visitIds.add(v.id);
    checkLocation(`${f}.location`, v.location);
    checkNumber(`${f}.duration`, v.duration, { min: 0 });
    if (v.timeWindows !== undefined) {
      if (!Array.isArray(v.timeWindows)) err(`${f}.timeWindows`, 'must be an array');
      else v.timeWindows.forEach((w, j) => checkWindow(`${f}.timeWindows[${j}]`, w));
    }
    if (v.pinnedPractitionerId !== undefined && !practitionerIds.has(v.pinnedPractitionerId)) {
      err(`${f}.pinnedPractitionerId`, `unknown practitioner "${v.pinnedPractitionerId}"`);
    }
    if (v.previousPractitionerId !== undefined && !practitionerIds.has(v.previousPractitionerId)) {
      err(`${f}.previousPractitionerId`, `unknown practitioner "${v.previousPractitionerId}"`);
    }
    if (v.excludedPractitionerIds !== undefined) {
      if (!Array.isArray(v.excludedPractitionerIds)) err(`${f}.excludedPractitionerIds`, 'must be an array');
      else {
        v.excludedPractitionerIds.forEach((id, j) => {
          if (!practitionerIds.has(id)) err(`${f}.excludedPractitionerIds[${j}]`, `unknown practitioner "${String(id)}"`);
        });
        if (v.pinnedPractitionerId !== undefined && v.excludedPractitionerIds.includes(v.pinnedPractitionerId)) {
          err(`${f}.pinnedPractitionerId`, `is pinned to practitioner "${v.pinnedPractitionerId}", whom it excludes`);
        }
      }
    }
    checkNumber(`${f}.pinnedStart`, v.pinnedStart, { optional: true });
    checkNumber(`${f}.preferredStart`, v.preferredStart, { optional: true });
    checkNumber(`${f}.agreedStart`, v.agreedStart, { optional: true });
    checkNumber(`${f}.movedWeight`, v.movedWeight, { min: 0, optional: true });
    checkNumber(`${f}.priority`, v.priority, { min: 0, optional: true });
    checkNumber(`${f}.demand`, v.demand, { min: 0, optional: true });
    if (v.allowLate !== undefined && typeof v.allowLate !== 'boolean') err(`${f}.allowLate`, 'must be a boolean');
    checkNumber(`${f}.maxLatenessMinutes`, v.maxLatenessMinutes, { min: 0, optional: true });
  });

  const w = problem.weights ?? {};
  for (const key of ['travelCost', 'unassigned', 'continuity', 'lateness', 'overtime', 'balance', 'moved'] as const) {
    checkNumber(`weights.${key}`, w[key], { min: 0, optional: true });
  }
  checkNumber('arrivalStepSeconds', problem.arrivalStepSeconds, { min: 0, optional: true });
  if (problem.coordinates !== undefined && problem.coordinates !== 'geographic' && problem.coordinates !== 'planar') {
    err('coordinates', `must be 'geographic' or 'planar'`);
  }
  return errors;
}

export function assertValidProblem(problem: Problem): void {
  const errors = validateProblem(problem);
  if (errors.length) throw new ProblemValidationError(errors);
}
