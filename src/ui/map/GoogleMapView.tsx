/// <reference types="google.maps" />
// The Google Maps renderer, loaded lazily only when a key is configured so it stays out of the main bundle. Single pins
// are clustered (radius 60, viewport padding 60); route stops never are, since their numbers are the point.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { GoogleMap, useJsApiLoader } from '@react-google-maps/api';
import { MarkerClusterer, SuperClusterViewportAlgorithm } from '@googlemaps/markerclusterer';
import { mapsLoaderOptions } from './googleLoader';
import { pointsKey, type StreetMapProps } from '../../lib/map/mapModel';
import { pinShape, pinSvg } from './pinIcon';
import { useBusinessDefaults } from '../../app/businessDefaults';
import { CLUSTER_RADIUS, CLUSTER_VIEWPORT_PADDING, DEFAULT_MAP_ZOOM, MAX_FIT_ZOOM } from '../../lib/map/mapTypes';

export interface GoogleMapViewProps extends StreetMapProps {
  apiKey: string;
}

export default function GoogleMapView({ apiKey, pins, lines, fitPoints, fit, height, onPinClick, onPinMove, onUnavailable }: GoogleMapViewProps) {
  const { isLoaded, loadError } = useJsApiLoader(mapsLoaderOptions(apiKey));
  const [map, setMap] = useState<google.maps.Map | null>(null);
  const { mapCenter } = useBusinessDefaults();
  const latest = useRef({ onPinClick, onPinMove, fitPoints });
  useLayoutEffect(() => {
    latest.current = { onPinClick, onPinMove, fitPoints };
  });
  const clickable = onPinClick !== undefined;
  const movable = onPinMove !== undefined;

  useEffect(() => {
    if (loadError) onUnavailable('script');
  }, [loadError, onUnavailable]);

  useEffect(() => {
    if (!map) return;
    const clustered: google.maps.Marker[] = [];
    const markers = pins.map((pin) => {
      const shape = pinShape(pin);
      const marker = new google.maps.Marker({
        position: { lat: pin.lat, lng: pin.lng },
        title: pin.title,
        icon: {
          url: `data:image/svg+xml;charset=UTF-8,${encodeURIComponent(pinSvg(pin))}`,
          anchor: new google.maps.Point(shape.anchor.x - pin.offset[0], shape.anchor.y - pin.offset[1]),
        },
        draggable: movable && pin.movable,
        clickable,
        zIndex: shape.isPlace ? 1 : 2,
      });
      if (clickable) marker.addListener('click', () => latest.current.onPinClick?.(pin));
      if (movable && pin.movable) {
        marker.addListener('dragend', (event: google.maps.MapMouseEvent) => {
          if (event.latLng) latest.current.onPinMove?.(pin, { lat: event.latLng.lat(), lng: event.latLng.lng() });
        });
      }
      if (pin.kind === 'pin' && !pin.movable) clustered.push(marker);
      else marker.setMap(map);
      return marker;
    });
    const clusterer = new MarkerClusterer({
      map,
      markers: clustered,
      algorithm: new SuperClusterViewportAlgorithm({ radius: CLUSTER_RADIUS, viewportPadding: CLUSTER_VIEWPORT_PADDING }),
    });
    const polylines = lines.map((line) => new google.maps.Polyline({
      map,
      path: line.points.map((point) => ({ lat: point.lat, lng: point.lng })),
      strokeColor: line.color,
      strokeWeight: 3,
      strokeOpacity: 0.8,
    }));
    return () => {
      clusterer.clearMarkers();
      for (const marker of markers) marker.setMap(null);
      for (const polyline of polylines) polyline.setMap(null);
    };
  }, [map, pins, lines, clickable, movable]);

  const fitKey = pointsKey(fitPoints);
  const fitted = useRef(false);
  useEffect(() => {
    const points = latest.current.fitPoints;
    if (!map || points.length === 0 || (fit === 'first' && fitted.current)) return;
    fitted.current = true;
    if (new Set(points.map((point) => `${point.lat},${point.lng}`)).size === 1) {
      map.setCenter(points[0]);
      map.setZoom(DEFAULT_MAP_ZOOM);
      return;
    }
    const bounds = new google.maps.LatLngBounds();
    for (const point of points) bounds.extend(point);
    map.fitBounds(bounds, 32);
    google.maps.event.addListenerOnce(map, 'idle', () => {
      if ((map.getZoom() ?? 0) > MAX_FIT_ZOOM) map.setZoom(MAX_FIT_ZOOM);
    });
  }, [map, fitKey, fit]);

  if (!isLoaded) return <div data-testid="map-loading" className="w-full animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" style={{ height }} />;
  return (
    <GoogleMap
      mapContainerStyle={{ width: '100%', height }}
      mapContainerClassName="rounded-lg"
      center={mapCenter}
      zoom={DEFAULT_MAP_ZOOM}
      options={{ gestureHandling: 'cooperative', streetViewControl: false, mapTypeControl: false }}
      onLoad={setMap}
      onUnmount={() => setMap(null)}
    />
  );
}
