// The travel provider every run, every check of a day and every travel figure measures with.
import type { Config } from '../../config';
import { CachedTravelProvider, HaversineProvider, OsrmProvider, type TravelProvider } from '../../optimizer';

const providers = new Map<string, TravelProvider>();

/**
 * Road travel from OSRM when OSRM_URL is set, else great-circle distance × a road factor; cached per process, so
 * repeated runs over the same places ask the road server once per pair.
 */
export function travelProviderFor(config: Pick<Config, 'osrmUrl'>): TravelProvider {
  const key = config.osrmUrl ?? 'haversine';
  let provider = providers.get(key);
  if (!provider) {
    provider = new CachedTravelProvider(config.osrmUrl ? new OsrmProvider({ url: config.osrmUrl }) : new HaversineProvider());
    providers.set(key, provider);
  }
  return provider;
}
