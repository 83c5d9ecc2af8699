// What every map of the product draws, whichever renderer draws it (Google Maps, MapLibre over MAP_STYLE_URL, or the
// offline drawing), and the maps' fixed settings: the centre (Brisbane) and zoom a map opens at when it has nothing to
// show, its height, and Google's marker clustering (radius 60, viewport padding 60).

export interface LatLng {
  lat: number;
  lng: number;
}

/** A visit on a route. Its number on the map is its place in `MapRoute.stops` (from 1) unless `label` says otherwise. */
export interface MapStop extends LatLng {
  id: string | number;
  /** What the stop is, e.g. the client's name: the pin's title (hover text and accessible name) with its number. */
  title: string;
  /** Replaces the stop's number on its pin (e.g. "!" for a visit that could not be placed); at most 3 characters show. */
  label?: string;
  /**
   * Stops of two routes with the same key at one place are one visit made by both practitioners together (a two-carer
   * visit): one pin naming both.
   */
  together?: string;
}

/** Where a practitioner's day starts or ends: drawn as a square marker (S, E, or S/E when both are one place). */
export interface MapPlace extends LatLng {
  name: string;
}

/** One practitioner's day on the map: their stops, numbered in visiting order, in their colour. */
export interface MapRoute {
  /** The practitioner's id: the legend's key, given back by `onStopClick` and the hidden-route props. */
  id: string | number;
  /** The practitioner's name: the legend's label and the start of every pin's title. */
  name: string;
  /** '#rrggbb', the practitioner's colour (practitioner.color). */
  color: string;
  /** What the legend says after the name instead of the number of stops (a line that is not a route, e.g. a radius). */
  note?: string;
  /** In visiting order. A place visited twice is one pin labelled with both numbers ("1,4"). */
  stops: readonly MapStop[];
  start?: MapPlace | null;
  end?: MapPlace | null;
  /**
   * The road from the start through every stop to the end, when it is known (e.g. from POST /travel with geometry);
   * without it the legs are straight lines between consecutive points.
   */
  path?: readonly LatLng[] | null;
}

/** A single place that is not on a route: a client's home, a custom location. */
export interface MapPin extends LatLng {
  id: string | number;
  title?: string;
  /** Short text on the pin. */
  label?: string;
  /** '#rrggbb'; rose when absent. */
  color?: string;
  /** false keeps this pin still when the map has `onPinMove` (only the pin being edited moves). */
  movable?: boolean;
}

/**
 * How the camera follows what is drawn:
 * - 'visible' (default): fits the shown stops, places and pins whenever they change (a practitioner toggled off
 *   zooms to the others);
 * - 'all': fits every route's and pin's points, shown or not, whenever they change (toggling does not move it);
 * - 'first': fits once, when there is first something to draw, and then leaves the camera to the user (an editor
 *   whose pin moves; give the map a new `key` to fit again).
 */
export type MapFit = 'visible' | 'all' | 'first';

export const DEFAULT_MAP_CENTER = { lat: -27.4795412, lng: 153.0160444 } as const;
export const DEFAULT_MAP_ZOOM = 14;
export const DEFAULT_MAP_HEIGHT = 200;
export const CLUSTER_RADIUS = 60;
export const CLUSTER_VIEWPORT_PADDING = 60;
/** Pins' colour when they have none. */
export const DEFAULT_PIN_COLOR = '#e11d48';
/** The camera never zooms closer than this to fit (a single point, or stops a few metres apart). */
export const MAX_FIT_ZOOM = 16;

export const hasCoordinates = <T extends { lat?: number | null; lng?: number | null }>(
  value: T,
): value is T & { lat: number; lng: number } =>
  typeof value.lat === 'number' && typeof value.lng === 'number' && Number.isFinite(value.lat) && Number.isFinite(value.lng);
