// What other features use of the settings pages' data: the optimisation settings (the Optimise dialog offers
// reassigning visits only when they allow it) and the practitioners' working data (moving a visit offers only the
// practitioners who deliver its type; "Insert into a route" starts with those who work that day).
export { optimizationSettingsQueries } from './optimization-settings/queries';
export { practitionerSettingsQueries } from './practitioners/queries';
export type { PractitionerSettings } from './practitioners/api';
