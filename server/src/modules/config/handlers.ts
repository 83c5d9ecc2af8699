// The app's public configuration (GET /config): no database, so no service or repository.
import type { Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';

export function configHandlers({ config }: AppContext): Handlers {
  return {
    getConfig: async () => ({
      product_name: 'Rounds',
      google_maps_api_key: config.googleMapsApiKey,
      help_url: config.helpUrl,
      map_style_url: config.mapStyleUrl,
      map_attribution: config.mapAttribution,
      road_geometry: Boolean(config.osrmUrl),
    }),
  };
}
