// What other features use of the nearby search: its query options (the page is reached through the route table).
export { nearbyQueries } from './queries';
