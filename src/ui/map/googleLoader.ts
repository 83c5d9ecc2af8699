// The one configuration of the Google Maps script loader: the loader refuses a second, different configuration, so
// every map uses this one. The loader itself retries 3 times with a growing delay (@googlemaps/js-api-loader's default).
import type { Libraries } from '@react-google-maps/api';

const MAPS_LOADER_ID = 'rounds-google-maps';
const LIBRARIES: Libraries = ['places'];

export interface MapsLoaderOptions {
  id: string;
  googleMapsApiKey: string;
  libraries: Libraries;
}

let configured: MapsLoaderOptions | null = null;

/** The same object for every caller, so React sees stable options; a different key is refused. */
export function mapsLoaderOptions(apiKey: string): MapsLoaderOptions {
  if (configured === null) {
    configured = { id: MAPS_LOADER_ID, googleMapsApiKey: apiKey, libraries: LIBRARIES };
  } else if (configured.googleMapsApiKey !== apiKey) {
    throw new Error('The maps loader is already configured with different options; only one configuration is allowed.');
  }
  return configured;
}

/** For tests only. */
export function resetMapsLoaderOptionsForTests(): void {
  configured = null;
}
