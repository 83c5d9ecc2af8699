// The travel provider every run, every check of a day and every travel figure measures with, and the one OSRM
// client behind it (the optimiser's), whose route service also draws the maps' roads.
import type { Config } from '../../config';
import { CachedTravelProvider, HaversineProvider, OsrmProvider, type TravelProvider } from '../../optimizer';

interface Travel { provider: TravelProvider; osrm: OsrmProvider | null }

const travels = new Map<string, Travel>();

function travelFor(config: Pick<Config, 'osrmUrl'>): Travel {
  const key = config.osrmUrl ?? 'haversine';
  let travel = travels.get(key);
  if (!travel) {
    const osrm = config.osrmUrl ? new OsrmProvider({ url: config.osrmUrl }) : null;
    travel = { provider: new CachedTravelProvider(osrm ?? new HaversineProvider()), osrm };
    travels.set(key, travel);
  }
  return travel;
}

/**
 * Road travel from OSRM when OSRM_URL is set, else great-circle distance × a road factor; cached per process, so
 * repeated runs over the same places ask the road server once per pair.
 */
export const travelProviderFor = (config: Pick<Config, 'osrmUrl'>): TravelProvider => travelFor(config).provider;

/** The OSRM server the provider asks (null without OSRM_URL), for what only it can answer: the road between points. */
export const osrmFor = (config: Pick<Config, 'osrmUrl'>): OsrmProvider | null => travelFor(config).osrm;
