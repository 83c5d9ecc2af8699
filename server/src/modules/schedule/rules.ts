// The rule book of home care (ADR 0020): every rule a day's plan is held to, its parameters, whether it is hard,
// and how it is said. The optimiser's problem, the day checker, manual moves and the arrival editor all read their
// rules from here. Pure.
//
// Times are seconds on one day's clock (as the optimiser counts them), durations in seconds.

export type RuleId =
  | 'practitioner-overlap'
  | 'client-overlap'
  | 'double-handed'
  | 'spacing'
  | 'tolerance'
  | 'availability'
  | 'working-hours'
  | 'on-leave'
  | 'skills'
  | 'excluded-practitioner'
  | 'travel-time';

export interface Rule {
  id: RuleId;
  /** What a list of the day's problems calls it. */
  title: string;
}

export const RULES: readonly Rule[] = [
  { id: 'practitioner-overlap', title: 'A practitioner in two places at once' },
  { id: 'client-overlap', title: 'Two visits of one client at once' },
  { id: 'double-handed', title: 'Two-carer visit not together' },
  { id: 'spacing', title: "Too close to the client's other visit" },
  { id: 'tolerance', title: 'Too far from the booked time' },
  { id: 'availability', title: "Outside the client's availability" },
  { id: 'working-hours', title: 'Outside working hours' },
  { id: 'on-leave', title: 'Practitioner on leave' },
  { id: 'skills', title: 'Not qualified for this visit' },
  { id: 'excluded-practitioner', title: 'A practitioner the client asked not to see' },
  { id: 'travel-time', title: 'Not enough travel time' },
];

/** The business's settings the rules read (the optimisation settings). */
export interface RuleSettings {
  tolerance_minutes: number;
  client_gap_minutes: number;
  availability_mode: 'hard' | 'soft';
}

/** An appointment type's own rules (null = the business's setting, or none). */
export interface TypeRules {
  tolerance_minutes: number | null;
  same_type_gap_minutes: number | null;
  /** Its visits need two practitioners at once (absent: no). */
  needs_two_practitioners?: boolean;
  /** What it is called, for the day checker's words. */
  name?: string;
  /** Its own price per minute a visit moves from its agreed time (null/absent = the business's move_price). */
  move_price?: number | null;
}

export interface RuleBook {
  /** Whether breaking the rule makes a plan unacceptable (a proposal never adds a break of a hard rule). */
  isHard(rule: RuleId): boolean;
  /** How far (seconds) a visit of this type may arrive from its booked start. */
  toleranceOf(typeId: number | null): number;
  /** The least gap (seconds) between the end of a client's earlier visit and the start of their later one. */
  gapBetween(earlierTypeId: number | null, laterTypeId: number | null): number;
  /** Whether a visit of this type needs two practitioners at once (a double-handed visit). */
  needsTwo(typeId: number | null): boolean;
  /** The type's name, when known. */
  typeName(typeId: number | null): string | null;
  /** The type's own price per minute moved from the agreed time; null: the business's (move_price). */
  movePriceOf(typeId: number | null): number | null;
}

/**
 * Rules that are shown but never make a plan unacceptable. Travel time is an estimate (the road server's or the
 * great-circle model's), not a promise to a client: a short leg makes the practitioner late, which the tolerance
 * and availability rules judge on their own.
 */
const SOFT_RULES: ReadonlySet<RuleId> = new Set(['working-hours', 'travel-time']);

export function ruleBookOf(settings: RuleSettings, types: ReadonlyMap<number, TypeRules>): RuleBook {
  return {
    isHard: (rule) => (rule === 'availability' ? settings.availability_mode === 'hard' : !SOFT_RULES.has(rule)),
    toleranceOf: (typeId) => 60 * ((typeId === null ? null : types.get(typeId)?.tolerance_minutes) ?? settings.tolerance_minutes),
    gapBetween: (earlier, later) => {
      const sameType = earlier !== null && earlier === later ? types.get(later)?.same_type_gap_minutes ?? 0 : 0;
      return 60 * Math.max(settings.client_gap_minutes, sameType);
    },
    needsTwo: (typeId) => typeId !== null && types.get(typeId)?.needs_two_practitioners === true,
    typeName: (typeId) => (typeId === null ? null : types.get(typeId)?.name ?? null),
    movePriceOf: (typeId) => (typeId === null ? null : types.get(typeId)?.move_price ?? null),
  };
}

/** The starts a rule of tolerance allows a visit agreed at `agreed` (ADR 0023): [agreed − T, agreed + T]. */
export const toleranceWindow = (rules: RuleBook, typeId: number | null, agreed: number) => {
  const tolerance = rules.toleranceOf(typeId);
  return { start: agreed - tolerance, end: agreed + tolerance };
};

/** Two visits of one client booked to start at the same time: a plan never moves them apart (nor one of them). */
export const bookedTogether = (a: { clientId: number | null; booked: number }, b: { clientId: number | null; booked: number }) =>
  a.clientId !== null && a.clientId === b.clientId && a.booked === b.booked;

/**
 * Two bookings of one client at the same booked start with different practitioners are one visit that needs two
 * practitioners: they arrive together rather than one after the other. A visit of a type that needs two practitioners
 * (RuleBook.needsTwo) needs such a partner.
 */
export const isDoubleHanded = (
  a: { clientId: number | null; booked: number; practitionerId: number },
  b: { clientId: number | null; booked: number; practitionerId: number },
) => bookedTogether(a, b) && a.practitionerId !== b.practitionerId;
