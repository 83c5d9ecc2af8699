export { optimizationSettingsHandlers } from './handlers';
// What other modules use of the optimisation settings: the business's settings (the defaults until an admin saves
// them) and what each weight means to the optimiser.
export { optimizationSettingsOf } from './service';
export { objectiveOf, searchTimeMs } from './objective';
export { DEFAULT_OPTIMIZATION_SETTINGS, PRESET_WEIGHTS, type OptimizationSettingsValues, type OptimizationWeights } from './presets';
export { checkNotPast, fixedTimeMessage, fixedUntil, fixedVisitMessage, hasStarted, isFixedStart, isFixedVisit, PAST_DAY, todayIn } from './fixed';
