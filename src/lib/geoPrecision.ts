// How precise a point on the map is, in words, wherever a geocoded point is shown (custom locations, homes, clients).
import type { components } from '../api/schema';

export type GeoPrecision = components['schemas']['GeoPrecision'];
export type GeoSource = components['schemas']['GeoSource'];

const PRECISION: Record<GeoPrecision, string> = {
  address: 'at the address',
  street: 'on the street, not at the exact building',
  suburb: 'at the centre of the suburb or postcode',
  none: 'not found',
};

const SOURCE: Record<NonNullable<GeoSource>, string> = {
  google: 'Google',
  nominatim: 'the geocoding server',
  gazetteer: 'the Australian suburb and postcode table',
  sandbox: 'the demo’s made-up streets, not for navigation',
  pms: 'the practice management system',
  manual: 'placed by hand',
};

/** "Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table)". */
export function precisionText(precision: GeoPrecision, source: GeoSource): string {
  if (precision === 'none') return 'No place was found for this address.';
  const from = source ? (source === 'manual' ? ` (${SOURCE.manual})` : ` (from ${SOURCE[source]})`) : '';
  return `Placed ${PRECISION[precision]}${from}.`;
}

const MARK: Record<Exclude<GeoPrecision, 'address'>, string> = {
  street: 'Approximate: street only',
  suburb: 'Approximate: suburb only',
  none: 'Not on the map',
};

/** The short mark beside a point that is not at the building ("Approximate: suburb only"); null at the address. */
export function precisionMark(precision: GeoPrecision): string | null {
  return precision === 'address' ? null : MARK[precision];
}

/** Whether a point is worth correcting by hand: anything less than the building itself. */
export const isApproximate = (precision: GeoPrecision) => precision !== 'address';

/** Latitude and longitude to four decimals (about 10 m): "-27.4698, 153.0251". */
export function coordinatesInWords(lat: number, lng: number): string {
  return `${lat.toFixed(4)}, ${lng.toFixed(4)}`;
}

/** Whether a place has a map position (business locations may come without one). */
export function isPlaced<T extends { lat?: number | null; lng?: number | null }>(place: T): place is T & { lat: number; lng: number } {
  return typeof place.lat === 'number' && typeof place.lng === 'number';
}

/**
 * Whether a pin placed for the address `placedFor` still stands for the address as now typed: an address edited after
 * it was looked up needs looking up again (or the pin moving by hand), or the old pin would be saved with the new words.
 */
export function pinFitsAddress(placedFor: string, address: string): boolean {
  return placedFor.trim() === address.trim();
}

/** A place of the business with a position: a business or custom location, a home, the default map centre. */
export interface KnownPlace {
  name: string;
  lat: number;
  lng: number;
}

/** Past this distance from every other place of the business, a looked-up point is probably the wrong town. */
export const FAR_KM = 150;

/** Great-circle distance in kilometres. */
export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const h = Math.sin(radians(b.lat - a.lat) / 2) ** 2 + Math.cos(radians(a.lat)) * Math.cos(radians(b.lat)) * Math.sin(radians(b.lng - a.lng) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/**
 * "This place is 3,610 km from North depot, the nearest of the business's other places: check the address." when
 * `point` is more than FAR_KM from every one of `places`; null when it is near one, or none is known.
 */
export function farAwayWarning(point: { lat: number; lng: number }, places: readonly KnownPlace[]): string | null {
  const nearest = places
    .map((place) => ({ place, km: distanceKm(point, place) }))
    .sort((a, b) => a.km - b.km)[0];
  if (!nearest || nearest.km <= FAR_KM) return null;
  const km = Math.round(nearest.km).toLocaleString('en-AU');
  return `This place is ${km} km from ${nearest.place.name}, the nearest of the business’s other places: check the address before saving.`;
}
