// What each optimisation weight means, in one place: how a business's settings become the optimiser's objective and
// search time. The contract's OptimizationWeights (openapi.yaml) says the same in words.
import type { OptimizationSettingsValues, OptimizationWeights } from './presets';

/**
 * The objective in the optimiser's terms. Every weight prices its unit on one scale, where 1 is one minute of travel
 * at the default travel_time weight:
 * - travel_time: per minute of travel (the optimiser's cost per hour of travel is 60 × it);
 * - distance: per kilometre driven;
 * - continuity: per visit moved away from the client's usual practitioner, in hours of travel
 *   (the default 0.25: a visit changes hands only when that saves more than 15 minutes of driving);
 * - lateness: per minute a visit starts after the client's availability (soft availability only);
 * - overtime: per minute a day ends after the practitioner's hours (within the allowed overtime);
 * - balance (when the business balances the day; 0 otherwise): per hour² of each practitioner's working day, summed
 *   over the days, so for the same total work even days cost least (two days 3 hours apart cost 4.5 × it more than
 *   two even days; moving an hour from the longer to the shorter saves 4 × it).
 */
export function objectiveOf(weights: OptimizationWeights, balance = 0) {
  return {
    weights: {
      travelCost: 1,
      continuity: 60 * weights.continuity,
      lateness: weights.lateness,
      overtime: weights.overtime,
      balance,
    },
    costPerHour: 60 * weights.travel_time,
    costPerKm: weights.distance,
  };
}

/** The search time of a run: the business's setting, under the server's cap (OPTIMIZER_MAX_SEARCH_MS) when one is set. */
export function searchTimeMs(settings: Pick<OptimizationSettingsValues, 'search_seconds'>, capMs: number | null): number {
  const wanted = settings.search_seconds * 1000;
  return capMs === null ? wanted : Math.min(wanted, capMs);
}
