// What other features use of the dashboard: its one query key (a change that should refresh it invalidates this).
export { dashboardQueries } from './queries';
