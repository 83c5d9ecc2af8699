// Optimisation settings as the contract's OptimizationSettings, and back to columns.
import type { Schemas } from '../../http/contract';
import { PRESET_WEIGHTS, type OptimizationSettingsValues } from './presets';
import type { OptimizationSettingsColumns, OptimizationSettingsRow } from './repository';

export const valuesOfRow = (row: OptimizationSettingsRow): OptimizationSettingsValues => ({
  availability_mode: row.availability_mode,
  max_lateness_minutes: row.max_lateness_minutes,
  overtime_minutes: row.overtime_minutes,
  visit_buffer_minutes: row.visit_buffer_minutes,
  arrival_rounding_minutes: row.arrival_rounding_minutes,
  preset: row.preset,
  weights: {
    travel_time: row.weight_travel_time, distance: row.weight_distance, continuity: row.weight_continuity,
    lateness: row.weight_lateness, overtime: row.weight_overtime,
  },
  search_seconds: row.search_seconds,
  allow_reassignment: row.allow_reassignment,
  fixed_before_minutes: row.fixed_before_minutes,
  tolerance_minutes: row.tolerance_minutes,
  client_gap_minutes: row.client_gap_minutes,
  balance_workload: row.balance_workload,
  balance_weight: row.balance_weight,
  call_in_min_visits: row.call_in_min_visits,
  call_in_min_minutes: row.call_in_min_minutes,
  move_price: row.move_price,
});

export const columnsOf = ({ weights, ...rest }: OptimizationSettingsValues): OptimizationSettingsColumns => ({
  ...rest,
  weight_travel_time: weights.travel_time, weight_distance: weights.distance, weight_continuity: weights.continuity,
  weight_lateness: weights.lateness, weight_overtime: weights.overtime,
});

export const toOptimizationSettingsDto = (values: OptimizationSettingsValues, updatedAt: Date | null): Schemas['OptimizationSettings'] => ({
  ...values,
  weights: { ...values.weights },
  preset_weights: {
    shortest_travel: { ...PRESET_WEIGHTS.shortest_travel }, balanced: { ...PRESET_WEIGHTS.balanced },
    punctual: { ...PRESET_WEIGHTS.punctual }, continuity: { ...PRESET_WEIGHTS.continuity },
  },
  updated_at: updatedAt?.toISOString() ?? null,
});
