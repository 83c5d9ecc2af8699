/// <reference types="google.maps" />
// The Google Maps renderer, loaded lazily only when a key is configured so it stays out of the main bundle.
import { useEffect, useState } from 'react';
import { GoogleMap, PolylineF, useJsApiLoader } from '@react-google-maps/api';
import { MarkerClusterer, SuperClusterViewportAlgorithm } from '@googlemaps/markerclusterer';
import { mapsLoaderOptions } from './googleLoader';
import { SvgMap } from './SvgMap';
import {
  CLUSTER_RADIUS,
  CLUSTER_VIEWPORT_PADDING,
  DEFAULT_MAP_CENTER,
  DEFAULT_MAP_ZOOM,
  type MapMarker,
  type MapRoute,
} from './mapTypes';

export interface GoogleMapViewProps {
  apiKey: string;
  markers: readonly MapMarker[];
  routes: readonly MapRoute[];
  height: number;
  onMarkerClick?: (marker: MapMarker) => void;
  /** The script could not load after its retries: the caller switches to the built-in map. */
  onUnavailable: () => void;
}

export default function GoogleMapView({ apiKey, markers, routes, height, onMarkerClick, onUnavailable }: GoogleMapViewProps) {
  const { isLoaded, loadError } = useJsApiLoader(mapsLoaderOptions(apiKey));
  const [map, setMap] = useState<google.maps.Map | null>(null);

  useEffect(() => {
    if (loadError) onUnavailable();
  }, [loadError, onUnavailable]);

  useEffect(() => {
    if (!map) return;
    const googleMarkers = markers.map((marker) => {
      const pin = new google.maps.Marker({
        position: { lat: marker.lat, lng: marker.lng },
        title: marker.title,
        label: marker.label,
      });
      if (onMarkerClick) pin.addListener('click', () => onMarkerClick(marker));
      return pin;
    });
    const clusterer = new MarkerClusterer({
      map,
      markers: googleMarkers,
      algorithm: new SuperClusterViewportAlgorithm({ radius: CLUSTER_RADIUS, viewportPadding: CLUSTER_VIEWPORT_PADDING }),
    });
    const points = [...markers, ...routes.flatMap((route) => route.points)];
    if (points.length > 1) {
      const bounds = new google.maps.LatLngBounds();
      for (const point of points) bounds.extend(point);
      map.fitBounds(bounds, 24);
    } else if (points.length === 1) {
      map.setCenter(points[0]);
    }
    return () => {
      clusterer.clearMarkers();
      for (const pin of googleMarkers) pin.setMap(null);
    };
  }, [map, markers, routes, onMarkerClick]);

  if (!isLoaded) return <SvgMap markers={markers} routes={routes} height={height} onMarkerClick={onMarkerClick} />;
  return (
    <GoogleMap
      mapContainerStyle={{ width: '100%', height }}
      mapContainerClassName="rounded-lg"
      center={DEFAULT_MAP_CENTER}
      zoom={DEFAULT_MAP_ZOOM}
      onLoad={setMap}
      onUnmount={() => setMap(null)}
    >
      {routes.map((route) => (
        <PolylineF
          key={route.id}
          path={route.points.map((point) => ({ lat: point.lat, lng: point.lng }))}
          options={{ strokeColor: route.color ?? '#0284c7', strokeWeight: 3, strokeOpacity: 0.8 }}
        />
      ))}
    </GoogleMap>
  );
}
