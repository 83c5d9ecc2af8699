import type { Location, TravelMatrix, TravelProvider } from '../types';
import { emptyMatrix } from './matrix';

export interface OsrmOptions {
  /** Base URL of an OSRM server, e.g. http://127.0.0.1:5000 (defaults to $OSRM_URL). */
  url?: string;
  profile?: string;
  /** OSRM's --max-table-size: most coordinates one request may carry (server default 100). */
  maxTableSize?: number;
  fetchImpl?: typeof fetch;
}

interface OsrmTableResponse {
  code: string;
  message?: string;
  durations?: (number | null)[][];
  distances?: (number | null)[][];
}

interface OsrmRouteResponse {
  code: string;
  routes?: Array<{ geometry?: { coordinates: [number, number][] }; legs: Array<{ duration: number; distance: number }> }>;
}

/** The road through some points in order: each leg's seconds and metres, and the road's line when it was asked for. */
export interface RoadRoute {
  legs: { duration: number; distance: number }[];
  geometry: Location[] | null;
}

/**
 * The one OSRM client. Real road times from OSRM's table service (`/table/v1/{profile}/{lng,lat;...}`): large
 * requests are split into blocks of sources × destinations so no request exceeds maxTableSize coordinates, and
 * unreachable pairs (null) become Infinity, which the solver treats as impossible legs. And the road through points
 * in order from its route service (`route`), for the maps' roads.
 */
export class OsrmProvider implements TravelProvider {
  readonly name = 'osrm';
  private readonly url: string;
  private readonly profile: string;
  private readonly maxTableSize: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: OsrmOptions = {}) {
    const url = options.url ?? process.env.OSRM_URL;
    if (!url) throw new Error('OSRM_URL: not set (pass options.url or set the environment variable)');
    this.url = url.replace(/\/+$/, '');
    this.profile = options.profile ?? 'driving';
    this.maxTableSize = options.maxTableSize ?? 100;
    if (this.maxTableSize < 2) throw new Error('maxTableSize: must be ≥ 2');
    this.fetchImpl = options.fetchImpl ?? fetch;
  }

  async matrix(locations: Location[]): Promise<TravelMatrix> {
    const m = emptyMatrix(locations.length);
    const block = Math.floor(this.maxTableSize / 2);
    for (let s = 0; s < locations.length; s += block) {
      for (let d = 0; d < locations.length; d += block) {
        const src = range(s, Math.min(locations.length, s + block));
        const dst = range(d, Math.min(locations.length, d + block));
        await this.fetchBlock(locations, src, dst, m);
      }
    }
    return m;
  }

  private async fetchBlock(locations: Location[], src: number[], dst: number[], m: TravelMatrix) {
    const sameBlock = src[0] === dst[0];
    const coords = sameBlock ? src : [...src, ...dst];
    const path = pathOf(coords.map((i) => locations[i]));
    const sources = src.map((_, k) => k).join(';');
    const destinations = dst.map((_, k) => (sameBlock ? k : src.length + k)).join(';');
    const url = `${this.url}/table/v1/${this.profile}/${path}?annotations=duration,distance&sources=${sources}&destinations=${destinations}`;
    const res = await this.fetchImpl(url);
    const body = (await res.json().catch(() => ({ code: 'InvalidResponse' }))) as OsrmTableResponse;
    if (!res.ok || body.code !== 'Ok') {
      throw new Error(`OSRM table request failed: HTTP ${res.status} ${body.code}${body.message ? `: ${body.message}` : ''}`);
    }
    if (!body.durations || !body.distances) throw new Error('OSRM table response lacks durations or distances');
    for (let a = 0; a < src.length; a++) {
      for (let b = 0; b < dst.length; b++) {
        const k = src[a] * m.size + dst[b];
        m.durations[k] = body.durations[a][b] ?? Infinity;
        m.distances[k] = body.distances[a][b] ?? Infinity;
      }
    }
  }

  /** The road through the points in order (route service); throws when OSRM fails or answers other legs than asked. */
  async route(points: readonly Location[], options: { geometry?: boolean; signal?: AbortSignal } = {}): Promise<RoadRoute> {
    const overview = options.geometry ? 'overview=full&geometries=geojson' : 'overview=false';
    const url = `${this.url}/route/v1/${this.profile}/${pathOf(points)}?${overview}&steps=false`;
    const res = await this.fetchImpl(url, { signal: options.signal });
    const body = (await res.json().catch(() => ({ code: 'InvalidResponse' }))) as OsrmRouteResponse;
    const route = body.routes?.[0];
    if (!res.ok || body.code !== 'Ok' || !route || route.legs.length !== points.length - 1) {
      throw new Error(`OSRM answered HTTP ${res.status} ${body.code}`);
    }
    return {
      legs: route.legs.map((leg) => ({ duration: leg.duration, distance: leg.distance })),
      geometry: options.geometry && route.geometry ? route.geometry.coordinates.map(([lng, lat]) => ({ lat, lng })) : null,
    };
  }
}

/** OSRM's path of coordinates: lng,lat pairs joined by ';'. */
const pathOf = (locations: readonly Location[]) => locations.map((location) => `${location.lng.toFixed(6)},${location.lat.toFixed(6)}`).join(';');

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) out.push(i);
  return out;
}
