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
