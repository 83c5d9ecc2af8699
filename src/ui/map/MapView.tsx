// The one map component of the app: Google Maps when a key is configured and the script loads, otherwise
// the built-in SVG map with the same markers and routes.
import { lazy, Suspense, useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { configQueries } from '../../api/queries';
import { SvgMap } from './SvgMap';
import { DEFAULT_MAP_HEIGHT, type MapMarker, type MapRoute } from './mapTypes';

const GoogleMapView = lazy(() => import('./GoogleMapView'));

export interface MapViewProps {
  markers: readonly MapMarker[];
  routes?: readonly MapRoute[];
  height?: number;
  onMarkerClick?: (marker: MapMarker) => void;
}

const NO_ROUTES: readonly MapRoute[] = [];

export function MapView({ markers, routes = NO_ROUTES, height = DEFAULT_MAP_HEIGHT, onMarkerClick }: MapViewProps) {
  const { api } = useServices();
  // Same cache entry as the header's: the config is read once per session.
  const config = useQuery(configQueries.current(api));
  const [googleUnavailable, setGoogleUnavailable] = useState(false);
  const markUnavailable = useCallback(() => setGoogleUnavailable(true), []);
  const apiKey = config.data?.google_maps_api_key;

  const builtIn = <SvgMap markers={markers} routes={routes} height={height} onMarkerClick={onMarkerClick} />;
  if (!apiKey || googleUnavailable) return <div data-testid="map" data-renderer="builtin">{builtIn}</div>;
  return (
    <div data-testid="map" data-renderer="google">
      <Suspense fallback={builtIn}>
        <GoogleMapView
          apiKey={apiKey}
          markers={markers}
          routes={routes}
          height={height}
          onMarkerClick={onMarkerClick}
          onUnavailable={markUnavailable}
        />
      </Suspense>
    </div>
  );
}
