// What other features use of the settings pages' data: the optimisation settings (the Optimise dialog offers
// reassigning visits only when they allow it).
export { optimizationSettingsQueries } from './optimization-settings/queries';
