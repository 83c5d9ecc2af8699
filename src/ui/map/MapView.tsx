// The one map component of the product. It draws routes (a practitioner's stops numbered in visiting order, in their
// colour, with their start and end places and the legs between) and single pins, with a legend to show or hide each
// practitioner, on the best map the server is configured for:
//   1. Google Maps when GOOGLE_MAPS_API_KEY is set (and the script loads);
//   2. else MapLibre GL over MAP_STYLE_URL (when the browser has WebGL 2 and the style loads);
//   3. else the offline drawing (pins on a grid, no streets), which says so on the map.
// Both street maps are loaded lazily, only when configured.
//
// Usage (a day's routes):
//   <MapView routes={[{ id: 7, name: 'Pat Nguyen', color: '#0284c7', start: home, end: home,
//                       stops: [{ id: 101, lat, lng, title: 'Margaret Jones' }, …] }]}
//            onStopClick={(stop) => openAppointmentModal(Number(stop.id))} height={320} />
// A single place:  <MapView pins={[{ id: 1, lat, lng, title: 'Depot' }]} />
// A pin to move:   <MapView key={location.id} fit="first" pins={[pin]} onPinMove={(pin, to) => save(to)} />
// Pass memoised arrays where you can; the map redraws only when what it draws changes either way.
import { lazy, Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../app/ServicesContext';
import { configQueries } from '../../api/queries';
import { selectRole } from '../../machines/auth';
import { SvgMap } from './SvgMap';
import { MapLegend } from './MapLegend';
import { buildMapModel, type DrawnPin, type MapModel, type UnavailableReason } from '../../lib/map/mapModel';
import { DEFAULT_MAP_HEIGHT, type LatLng, type MapFit, type MapPin, type MapRoute, type MapStop } from '../../lib/map/mapTypes';

const GoogleMapView = lazy(() => import('./GoogleMapView'));
const MapLibreView = lazy(() => import('./MapLibreView'));

export interface MapViewProps {
  /** One entry per practitioner; see MapRoute. */
  routes?: readonly MapRoute[];
  /** Places that are not on a route. */
  pins?: readonly MapPin[];
  /** Draw each route's legs (straight, or its `path`). Default true. */
  legs?: boolean;
  /** How the camera follows what is drawn; default 'visible'. See MapFit. */
  fit?: MapFit;
  /** Checkboxes to show or hide each route; default: when there are two routes or more. */
  legend?: boolean;
  /** The routes hidden, when the caller keeps them (e.g. beside lanes with their own toggles); else the map does. */
  hiddenRouteIds?: readonly MapRoute['id'][];
  onHiddenRouteIdsChange?: (ids: MapRoute['id'][]) => void;
  /** In px; default 200. */
  height?: number;
  onStopClick?: (stop: MapStop, route: MapRoute) => void;
  onPinClick?: (pin: MapPin) => void;
  /** Makes the pins movable: dragged on a street map, placed with a click on the offline drawing. */
  onPinMove?: (pin: MapPin, to: LatLng) => void;
  /**
   * Many single pins (a report's clients): where they crowd at the scale shown, one counted circle instead (Google Maps
   * always clusters single pins).
   */
  density?: boolean;
}

const NONE = [] as const;
type Renderer = 'google' | 'maplibre' | 'offline';

/** The same object while its content is the same, so a caller's new arrays do not redraw the map. */
function useSameWhileEqual<T>(value: T): T {
  const key = JSON.stringify(value);
  const [kept, setKept] = useState({ key, value });
  if (kept.key !== key) {
    setKept({ key, value });
    return value;
  }
  return kept.value;
}

export function MapView({
  routes = NONE, pins = NONE, legs = true, fit = 'visible', legend, hiddenRouteIds, onHiddenRouteIdsChange,
  height = DEFAULT_MAP_HEIGHT, onStopClick, onPinClick, onPinMove, density = false,
}: MapViewProps) {
  const { api } = useServices();
  const role = useAuthSelector(selectRole);
  // Same cache entry as the header's: the config is read once per session.
  const config = useQuery(configQueries.current(api));
  const [failed, setFailed] = useState<Partial<Record<Renderer, UnavailableReason>>>({});
  const [ownHidden, setOwnHidden] = useState<MapRoute['id'][]>([]);
  const hidden = hiddenRouteIds ?? ownHidden;
  const setHidden = (ids: MapRoute['id'][]) => (onHiddenRouteIdsChange ? onHiddenRouteIdsChange(ids) : setOwnHidden(ids));

  const built = useMemo(
    () => buildMapModel({ routes, pins, hidden: new Set(hidden), legs, fit, movablePins: onPinMove !== undefined }),
    [routes, pins, hidden, legs, fit, onPinMove],
  );
  const model: MapModel = useSameWhileEqual(built);

  const clickable = onStopClick !== undefined || onPinClick !== undefined;
  const pinClicked = useCallback((pin: DrawnPin) => {
    const { target } = pin;
    if (target.kind === 'stop') {
      const route = routes.find((candidate) => candidate.id === target.routeId);
      const stop = route?.stops.find((candidate) => candidate.id === target.stopId);
      if (route && stop) onStopClick?.(stop, route);
    } else if (target.kind === 'pin') {
      const found = pins.find((candidate) => candidate.id === target.pinId);
      if (found) onPinClick?.(found);
    }
  }, [routes, pins, onStopClick, onPinClick]);
  const pinMoved = useCallback((pin: DrawnPin, to: LatLng) => {
    const { target } = pin;
    const found = target.kind === 'pin' ? pins.find((candidate) => candidate.id === target.pinId) : undefined;
    if (found) onPinMove?.(found, { lat: round(to.lat), lng: round(to.lng) });
  }, [pins, onPinMove]);
  const google = useCallback((reason: UnavailableReason) => setFailed((now) => ({ ...now, google: reason })), []);
  const maplibre = useCallback((reason: UnavailableReason) => setFailed((now) => ({ ...now, maplibre: reason })), []);

  const apiKey = config.data?.google_maps_api_key ?? null;
  const styleUrl = config.data?.map_style_url ?? null;
  const renderer: Renderer | 'loading' = config.isPending
    ? 'loading'
    : apiKey && !failed.google ? 'google' : styleUrl && !failed.maplibre ? 'maplibre' : 'offline';
  const drawn = {
    pins: model.pins, lines: model.lines, fitPoints: model.fitPoints, fit, height,
    onPinClick: clickable ? pinClicked : undefined, onPinMove: onPinMove ? pinMoved : undefined,
  };
  const placeholder = <div data-testid="map-loading" className="w-full animate-pulse rounded-lg bg-slate-100 dark:bg-slate-800" style={{ height }} />;

  let map: ReactNode;
  if (renderer === 'loading') map = placeholder;
  else if (renderer === 'google') {
    map = <Suspense fallback={placeholder}><GoogleMapView apiKey={apiKey!} {...drawn} onUnavailable={google} /></Suspense>;
  } else if (renderer === 'maplibre') {
    map = (
      <Suspense fallback={placeholder}>
        <MapLibreView styleUrl={styleUrl!} attribution={config.data?.map_attribution ?? null} {...drawn} density={density} onUnavailable={maplibre} />
      </Suspense>
    );
  } else {
    const movableShown = onPinMove && model.pins.find((pin) => pin.movable);
    map = (
      <div className="relative">
        <SvgMap
          {...drawn}
          keepFirstFrame={fit === 'first'}
          density={density}
          onPlace={movableShown ? (to) => pinMoved(movableShown, to) : undefined}
        />
        {/* Bottom left: the drawing keeps its pins 32 px above its bottom edge, so the note covers none. */}
        <span className="pointer-events-none absolute bottom-1 left-1 rounded bg-white/90 px-1.5 py-0.5 text-[11px] font-medium text-slate-700 shadow-sm dark:bg-slate-900/90 dark:text-slate-200">
          Offline drawing · no streets
        </span>
      </div>
    );
  }

  const showLegend = legend ?? routes.length > 1;
  return (
    <div data-testid="map" data-renderer={renderer}>
      {showLegend && routes.length > 0 && (
        <MapLegend routes={routes} hidden={hidden} onChange={setHidden} />
      )}
      {map}
      {renderer === 'offline' && (
        <p data-testid="map-note" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {offlineNote(failed, Boolean(apiKey), Boolean(styleUrl), role === 'ADMIN', onPinMove !== undefined)}
        </p>
      )}
    </div>
  );
}

/** 6 decimals: about 10 cm, more than any pin placed by hand needs. */
const round = (degrees: number) => Math.round(degrees * 1e6) / 1e6;

function offlineNote(
  failed: Partial<Record<Renderer, UnavailableReason>>, hasGoogle: boolean, hasStyle: boolean, isAdmin: boolean, placing: boolean,
): string {
  const place = placing ? ' Click the drawing to place the pin.' : '';
  const why = failed.maplibre === 'webgl'
    ? 'This browser cannot draw the street map (WebGL 2 is off or unavailable)'
    : failed.maplibre === 'style'
      ? 'The street map’s style could not be loaded'
      : failed.google
        ? 'Google Maps could not be loaded'
        : null;
  if (why) return `${why}, so this is an offline drawing of the places, without streets: not for navigation.${place}`;
  if (hasGoogle || hasStyle) return `An offline drawing of the places, without streets: not for navigation.${place}`;
  const how = isAdmin
    ? 'To show streets, set MAP_STYLE_URL (a MapLibre style, e.g. your OpenStreetMap tiles) or GOOGLE_MAPS_API_KEY on the server.'
    : 'An administrator can set up a street map.';
  return `No street map is configured: this is an offline drawing of the places, without streets. ${how}${place}`;
}
