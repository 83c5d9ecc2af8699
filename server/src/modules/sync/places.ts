/**
 * Where an import puts a client or business location on the map, with the point's precision and source:
 * - a pin a user corrected by hand stays while the address stays the same (a new address is placed again, and the
 *   change log says why);
 * - coordinates the PMS sends are kept ('pms'; the sandbox's come from its synthetic street list: 'sandbox');
 * - otherwise the address is geocoded — but an unchanged address keeps its point, unless that point can be bettered:
 *   a synthetic 'sandbox' point for a provider that is not the sandbox (never kept for a real provider's clients), a
 *   gazetteer point when an online geocoder is configured, or no point at all.
 * Geocoding happens before the page's transaction (it may call a server); the decision itself is repeated inside
 * the transaction against the row as it is then.
 */
import type { GeoPrecision, GeoSource } from '../../db/schema';
import { hasAddress, simplify } from '../../geo/address';
import type { PointBatch } from '../../geo/service';
import type { AddressParts, GeoPoint } from '../../geo/types';

export interface PointFields {
  lat: number | null;
  lng: number | null;
  geo_precision: GeoPrecision;
  geo_source: GeoSource | null;
}

/** A stored row's address and point (clients and business locations alike; only clients have geo_manual). */
export interface StoredPlace extends PointFields {
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  state: string | null;
  post_code: string | null;
  country: string | null;
  geo_manual?: boolean;
}

/** An incoming PMS record: its address and the coordinates it may carry. */
export interface IncomingPlace extends AddressParts {
  latitude: number | null;
  longitude: number | null;
}

export interface PlacePolicy {
  /** The provider account is the built-in sandbox. */
  sandbox: boolean;
  /** An online geocoder is configured. */
  online: boolean;
}

export type PointPlan =
  | { action: 'keep' }
  | { action: 'set'; fields: PointFields }
  | { action: 'geocode' };

export const NO_POINT: PointFields = { lat: null, lng: null, geo_precision: 'none', geo_source: null };

export const MANUAL_PIN_REPLACED = 'The address changed in the practice management system, so the pin placed by hand was replaced.';

const ADDRESS_FIELDS = ['address_1', 'address_2', 'city', 'state', 'post_code', 'country'] as const;

export function sameAddress(a: AddressParts, b: AddressParts): boolean {
  return ADDRESS_FIELDS.every((field) => simplify(a[field]) === simplify(b[field]));
}

/** A stored point worth placing again (see the file's comment). */
export function worthRefining(point: Pick<PointFields, 'lat' | 'geo_source'>, policy: PlacePolicy): boolean {
  if (point.lat === null) return true;
  if (point.geo_source === 'sandbox') return !policy.sandbox;
  return point.geo_source === 'gazetteer' && policy.online;
}

export function pointFieldsOf(row: PointFields): PointFields {
  return { lat: row.lat, lng: row.lng, geo_precision: row.geo_precision, geo_source: row.geo_source };
}

export function fieldsFromPoint(point: GeoPoint | null): PointFields {
  return point ? { lat: point.lat, lng: point.lng, geo_precision: point.precision, geo_source: point.source } : NO_POINT;
}

/** What to do with a record's point, before any geocoding. */
export function planPoint(record: IncomingPlace, current: StoredPlace | undefined, policy: PlacePolicy, batch: Pick<PointBatch, 'sandboxPrecision'>): PointPlan {
  const moved = current !== undefined && !sameAddress(current, record);
  if (current?.geo_manual && !moved) return { action: 'keep' };
  if (record.latitude !== null && record.longitude !== null) {
    return {
      action: 'set',
      fields: policy.sandbox
        ? { lat: record.latitude, lng: record.longitude, geo_precision: batch.sandboxPrecision(record), geo_source: 'sandbox' }
        : { lat: record.latitude, lng: record.longitude, geo_precision: 'address', geo_source: 'pms' },
    };
  }
  if (!hasAddress(record)) return { action: 'set', fields: NO_POINT };
  if (current && !moved && !worthRefining(current, policy)) return { action: 'keep' };
  return { action: 'geocode' };
}

/**
 * The point fields to write for a record, given the plan and the geocoded point (when it was geocoded). When nothing
 * placed the address, an unchanged address keeps its point — unless that point is the sandbox's and the provider is not.
 */
export function pointToWrite(
  plan: PointPlan, record: AddressParts, current: StoredPlace | undefined, geocoded: GeoPoint | null | undefined, policy: PlacePolicy,
): PointFields {
  if (plan.action === 'set') return plan.fields;
  if (plan.action === 'keep') return pointFieldsOf(current!);
  if (geocoded) return fieldsFromPoint(geocoded);
  const keepable = current !== undefined && current.lat !== null && !current.geo_manual && sameAddress(current, record)
    && !(current.geo_source === 'sandbox' && !policy.sandbox);
  return keepable ? pointFieldsOf(current) : NO_POINT;
}
