export { optimizationSettingsHandlers } from './handlers';
// A business's settings, or the defaults when it has saved none (what a run uses; tests).
export { optimizationSettingsOf } from './service';
export type { OptimizationSettingsValues, OptimizationWeights } from './presets';
