// The business's optimisation settings (optimization_settings, migration 0050; a business without a row uses the
// migration's defaults) and how they become the optimiser's objective and options. The settings API itself is built
// elsewhere (branch routesdata); this module only reads the row.
import { eq } from 'drizzle-orm';
import { optimizationSettings } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export type OptimizationSettingsRow = Omit<typeof optimizationSettings.$inferSelect, 'business_account_id' | 'updated_at'>;

/** The column defaults of migration 0050. */
export const DEFAULT_OPTIMIZATION_SETTINGS: OptimizationSettingsRow = {
  availability_mode: 'hard',
  max_lateness_minutes: 30,
  overtime_minutes: 0,
  visit_buffer_minutes: 0,
  arrival_rounding_minutes: 5,
  preset: 'balanced',
  weight_travel_time: 1,
  weight_distance: 0,
  weight_continuity: 0.25,
  weight_lateness: 0.5,
  weight_overtime: 1,
  search_seconds: 10,
  allow_reassignment: true,
};

export async function readOptimizationSettings(db: DbOrTx, businessAccountId: number): Promise<OptimizationSettingsRow> {
  const [row] = await db.select().from(optimizationSettings).where(eq(optimizationSettings.business_account_id, businessAccountId));
  if (!row) return { ...DEFAULT_OPTIMIZATION_SETTINGS };
  const { business_account_id: _business, updated_at: _updated, ...settings } = row;
  return settings;
}

/**
 * The objective in the optimiser's terms. Every weight prices its unit in minutes of travel:
 * - weight_travel_time: per minute of travel (the optimiser's cost per hour of travel is 60 × it);
 * - weight_distance: per kilometre driven;
 * - weight_continuity: per visit moved away from the client's usual practitioner, in hours of travel
 *   (the default 0.25: a visit changes hands only when that saves more than 15 minutes of driving);
 * - weight_lateness: per minute a visit starts after the client's availability (soft availability only);
 * - weight_overtime: per minute a day ends after the practitioner's hours (within the allowed overtime).
 */
export function objectiveOf(settings: OptimizationSettingsRow) {
  return {
    weights: {
      travelCost: 1,
      continuity: 60 * settings.weight_continuity,
      lateness: settings.weight_lateness,
      overtime: settings.weight_overtime,
    },
    costPerHour: 60 * settings.weight_travel_time,
    costPerKm: settings.weight_distance,
  };
}

/** The search time of a run: the business's setting, under the server's cap (OPTIMIZER_MAX_SEARCH_MS) when one is set. */
export function searchTimeMs(settings: OptimizationSettingsRow, capMs: number | null): number {
  const wanted = settings.search_seconds * 1000;
  return capMs === null ? wanted : Math.min(wanted, capMs);
}
