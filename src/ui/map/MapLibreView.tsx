// The street map without a Google key: MapLibre GL over the style MAP_STYLE_URL names. Loaded lazily (the library, its
// worker and its CSS are their own chunks), only when a style is configured. It needs WebGL 2; when the browser has
// none, or the style cannot be loaded, MapView falls back to the offline drawing.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  AttributionControl, GPUInitializationError, Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl, type GeoJSONSource,
} from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import { pointsKey, type StreetMapProps } from '../../lib/map/mapModel';
import { densityView } from './density';
import { densityElement, pinElement } from './pinElement';
import { pinShape } from './pinIcon';
import { useBusinessDefaults } from '../../app/businessDefaults';
import { DEFAULT_MAP_ZOOM, MAX_FIT_ZOOM, type LatLng } from '../../lib/map/mapTypes';

// The worker is a file of its own beside the app's assets (same origin, so the Content-Security-Policy allows it).
setWorkerUrl(workerUrl);

/** A style that has not loaded after this long is given up for the offline drawing. */
export const STYLE_TIMEOUT_MS = 15_000;
const LEGS_SOURCE = 'rounds-legs';
/** Room for a pin above its point, the zoom buttons on the right and the credit at the bottom. */
const FIT_PADDING = { top: 40, bottom: 30, left: 24, right: 48 };

export interface MapLibreViewProps extends StreetMapProps {
  styleUrl: string;
  /** Shown beside the style's own credits (MAP_ATTRIBUTION). */
  attribution: string | null;
  /** Gathers crowded single pins into counted circles at the zoom shown (see density.ts). */
  density?: boolean;
}

function fitCamera(map: MapLibreMap, points: readonly LatLng[]) {
  const distinct = new Set(points.map((point) => `${point.lat},${point.lng}`));
  if (distinct.size === 1) {
    map.jumpTo({ center: [points[0].lng, points[0].lat], zoom: DEFAULT_MAP_ZOOM });
    return;
  }
  const lngs = points.map((point) => point.lng);
  const lats = points.map((point) => point.lat);
  const { clientWidth, clientHeight } = map.getContainer();
  // A box too small for the padding (a hidden map) fits without it rather than failing.
  const padding = clientWidth > 160 && clientHeight > 120 ? FIT_PADDING : 0;
  map.fitBounds([[Math.min(...lngs), Math.min(...lats)], [Math.max(...lngs), Math.max(...lats)]], { padding, maxZoom: MAX_FIT_ZOOM, animate: false });
}

export default function MapLibreView({
  styleUrl, attribution, pins, lines, fitPoints, fit, height, onPinClick, onPinMove, onUnavailable, density = false,
}: MapLibreViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  /** The zoom the density view was gathered at: it is gathered again after each zoom. */
  const [zoom, setZoom] = useState<number | null>(null);
  const [styleReady, setStyleReady] = useState(false);
  // Where the map opens before anything is fitted: the business's centre when the map is made (a new style remakes it).
  const openingCenter = useRef(useBusinessDefaults().mapCenter);
  const latest = useRef({ onPinClick, onPinMove, onUnavailable, fitPoints });
  useLayoutEffect(() => {
    latest.current = { onPinClick, onPinMove, onUnavailable, fitPoints };
  });
  const clickable = onPinClick !== undefined;
  const movable = onPinMove !== undefined;

  useEffect(() => {
    let instance: MapLibreMap;
    try {
      instance = new MapLibreMap({
        container: container.current!,
        style: styleUrl,
        center: [openingCenter.current.lng, openingCenter.current.lat],
        zoom: DEFAULT_MAP_ZOOM,
        attributionControl: false,
        // One finger scrolls the page on a phone (two move the map); ctrl + wheel zooms on a computer.
        cooperativeGestures: true,
      });
    } catch (error) {
      latest.current.onUnavailable(error instanceof GPUInitializationError ? 'webgl' : 'style');
      return;
    }
    instance.addControl(new AttributionControl({ compact: true, ...(attribution ? { customAttribution: attribution } : {}) }));
    instance.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    let styleLoaded = false;
    const giveUp = window.setTimeout(() => {
      if (!styleLoaded) latest.current.onUnavailable('style');
    }, STYLE_TIMEOUT_MS);
    instance.on('style.load', () => {
      styleLoaded = true;
      window.clearTimeout(giveUp);
      setStyleReady(true);
    });
    // Before the style is in, an error is the style's (unreachable, not a style): nothing could be drawn. After it,
    // a missing tile leaves a gap but the map still works.
    instance.on('error', () => {
      if (!styleLoaded) latest.current.onUnavailable('style');
    });
    setMap(instance);
    return () => {
      window.clearTimeout(giveUp);
      instance.remove();
      setMap(null);
      setStyleReady(false);
    };
  }, [styleUrl, attribution]);

  useEffect(() => {
    if (!map || !density) return;
    const zoomed = () => setZoom(map.getZoom());
    map.on('zoomend', zoomed);
    return () => {
      map.off('zoomend', zoomed);
    };
  }, [map, density]);

  useEffect(() => {
    if (!map) return;
    const view = density ? densityView(pins, (point) => map.project([point.lng, point.lat])) : { pins, cells: [] };
    const cellMarkers = view.cells.map((cell) => {
      const element = densityElement(cell);
      element.addEventListener('click', (event) => {
        event.stopPropagation();
        fitCamera(map, cell.pins);
      });
      return new Marker({ element, anchor: 'center' }).setLngLat([cell.lng, cell.lat]).addTo(map);
    });
    const markers = view.pins.map((pin) => {
      const element = pinElement(pin, clickable);
      if (clickable) {
        element.addEventListener('click', (event) => {
          event.stopPropagation();
          latest.current.onPinClick?.(pin);
        });
      }
      const marker = new Marker({
        element,
        anchor: pinShape(pin).isPlace ? 'center' : 'bottom',
        offset: [pin.offset[0], pin.offset[1]],
        draggable: movable && pin.movable,
      }).setLngLat([pin.lng, pin.lat]);
      if (movable && pin.movable) {
        marker.on('dragend', () => {
          const { lat, lng } = marker.getLngLat();
          latest.current.onPinMove?.(pin, { lat, lng });
        });
      }
      return marker.addTo(map);
    });
    return () => {
      for (const marker of [...markers, ...cellMarkers]) marker.remove();
    };
  }, [map, pins, clickable, movable, density, zoom]);

  useEffect(() => {
    if (!map || !styleReady) return;
    const data: GeoJSON.FeatureCollection = {
      type: 'FeatureCollection',
      features: lines.map((line) => ({
        type: 'Feature',
        properties: { color: line.color, title: line.title },
        geometry: { type: 'LineString', coordinates: line.points.map((point) => [point.lng, point.lat]) },
      })),
    };
    const source = map.getSource<GeoJSONSource>(LEGS_SOURCE);
    if (source) {
      source.setData(data);
      return;
    }
    map.addSource(LEGS_SOURCE, { type: 'geojson', data });
    map.addLayer({
      id: LEGS_SOURCE,
      type: 'line',
      source: LEGS_SOURCE,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': ['get', 'color'], 'line-width': 3, 'line-opacity': 0.8 },
    });
  }, [map, styleReady, lines]);

  // The camera follows the fitted points when they change (MapFit); 'first' fits once.
  const fitKey = pointsKey(fitPoints);
  const fitted = useRef(false);
  useEffect(() => {
    const points = latest.current.fitPoints;
    if (!map || points.length === 0 || (fit === 'first' && fitted.current)) return;
    fitted.current = true;
    fitCamera(map, points);
  }, [map, fitKey, fit]);

  return <div ref={container} data-testid="maplibre-map" className="w-full overflow-hidden rounded-lg" style={{ height }} />;
}
