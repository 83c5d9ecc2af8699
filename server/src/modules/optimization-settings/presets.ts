// The one place where the optimisation presets (the plain choices on the settings page) become weights, and the
// settings a business has before an admin saves any (the column defaults of migration 0050).
import type { OptimizationPreset } from '../../db/schema';

/**
 * What each term of the optimiser's objective costs, on one scale where 1 is a minute of travel: travel_time per
 * minute of travel, distance per km, continuity per visit moved away from the client's usual practitioner (in hours
 * of travel), lateness and overtime per minute. objectiveOf (objective.ts) is where they become the engine's weights.
 */
export interface OptimizationWeights { travel_time: number; distance: number; continuity: number; lateness: number; overtime: number }
export type NamedPreset = Exclude<OptimizationPreset, 'custom'>;

export const PRESET_WEIGHTS: Readonly<Record<NamedPreset, Readonly<OptimizationWeights>>> = {
  /** Travel time and nothing else: the least driving, whoever sees the client and however late within the rules. */
  shortest_travel: { travel_time: 1, distance: 0, continuity: 0, lateness: 0, overtime: 0 },
  /** The defaults: travel first, some weight on keeping clients' practitioners, on lateness and on overtime. */
  balanced: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 0.5, overtime: 1 },
  /** On time above all: lateness ten times the balanced weight, overtime twice. */
  punctual: { travel_time: 1, distance: 0, continuity: 0.25, lateness: 5, overtime: 2 },
  /** Keep clients with their usual practitioner: continuity eight times the balanced weight. */
  continuity: { travel_time: 1, distance: 0, continuity: 2, lateness: 0.5, overtime: 1 },
};

export const NAMED_PRESETS = Object.keys(PRESET_WEIGHTS) as NamedPreset[];

export interface OptimizationSettingsValues {
  availability_mode: 'hard' | 'soft';
  max_lateness_minutes: number;
  overtime_minutes: number;
  visit_buffer_minutes: number;
  arrival_rounding_minutes: number;
  preset: OptimizationPreset;
  weights: OptimizationWeights;
  search_seconds: number;
  allow_reassignment: boolean;
  /** Today, visits starting sooner than this many minutes from now (or started) keep their time and practitioner. */
  fixed_before_minutes: number;
  /** An arrival may move at most this many minutes either side of the booked start (per type: its own). */
  tolerance_minutes: number;
  /** The least gap between the end of one of a client's visits and the start of their next, minutes. */
  client_gap_minutes: number;
  /** Balance the day between practitioners: uneven working days cost `balance_weight` per hour², summed over the days. */
  balance_workload: boolean;
  balance_weight: number;
  /**
   * A reassigning run calls a practitioner in on a day they had nothing booked only when their day there reaches this
   * many visits, or call_in_min_minutes of working time (either is enough; migration 0100).
   */
  call_in_min_visits: number;
  call_in_min_minutes: number;
  /**
   * The price of moving a visit from its agreed time, per minute moved, on the weights' scale (1 = a minute of
   * travel; per type: its own): a move happens only when it buys more travel, lateness or overtime than it costs.
   */
  move_price: number;
}

/** A business's settings until an admin saves them: the column defaults of optimization_settings (migration 0050). */
export const DEFAULT_OPTIMIZATION_SETTINGS: Readonly<OptimizationSettingsValues> = {
  availability_mode: 'hard',
  max_lateness_minutes: 30,
  overtime_minutes: 0,
  visit_buffer_minutes: 0,
  arrival_rounding_minutes: 5,
  preset: 'balanced',
  weights: { ...PRESET_WEIGHTS.balanced },
  search_seconds: 10,
  allow_reassignment: true,
  fixed_before_minutes: 30,
  tolerance_minutes: 30,
  client_gap_minutes: 60,
  balance_workload: false,
  balance_weight: 10,
  call_in_min_visits: 3,
  call_in_min_minutes: 180,
  move_price: 0.25,
};

export const sameWeights = (a: OptimizationWeights, b: OptimizationWeights) =>
  (Object.keys(b) as (keyof OptimizationWeights)[]).every((key) => a[key] === b[key]);
