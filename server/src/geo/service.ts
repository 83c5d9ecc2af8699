/**
 * Geocoding as the product uses it: the configured chain (online geocoder, then the bundled gazetteer) with the
 * online geocoder's answers cached per business and normalised address (table geocode_cache), so the same address is
 * never asked twice. Interactive lookups (POST /geocode) and imports share it; an import resolves addresses in
 * batches with a time budget for the online geocoder, and stops calling it after a few failures in a row, so that
 * importing thousands of clients stays fast — whatever is left is placed by the gazetteer and refined by later imports.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { geocodeCache } from '../db/schema';
import { addressKey, hasAddress } from './address';
import { AustralianGazetteer } from './au-gazetteer';
import { GeocoderChain } from './chain';
import { GoogleGeocoder } from './google';
import { NominatimGeocoder } from './nominatim';
import { SandboxGeocoder } from './sandbox';
import type { AddressParts, GeocodeOptions, Geocoder, GeoPoint } from './types';

export interface GeocoderSettings {
  googleMapsApiKey: string | null;
  /** Google's endpoint (tests and proxies replace it). */
  googleGeocodingUrl?: string;
  geocoderUrl: string | null;
  /** The User-Agent sent to a Nominatim-compatible server. */
  userAgent: string;
  /** Per request; default 10 s. */
  timeoutMs?: number;
  /** Between two Nominatim requests; default 1 s. */
  nominatimIntervalMs?: number;
}

/** The online geocoder the settings configure: Google when its key is set, else GEOCODER_URL, else none. */
export function onlineGeocoderFor(settings: GeocoderSettings): Geocoder | null {
  if (settings.googleMapsApiKey) {
    return new GoogleGeocoder({ apiKey: settings.googleMapsApiKey, url: settings.googleGeocodingUrl, timeoutMs: settings.timeoutMs });
  }
  if (settings.geocoderUrl) {
    return new NominatimGeocoder({
      url: settings.geocoderUrl, userAgent: settings.userAgent, timeoutMs: settings.timeoutMs, minIntervalMs: settings.nominatimIntervalMs,
    });
  }
  return null;
}

/** The settings from the configuration; `contactEmail` goes into the User-Agent. */
export function geocoderSettingsOf(config: Config, contactEmail: string): GeocoderSettings {
  return {
    googleMapsApiKey: config.googleMapsApiKey,
    googleGeocodingUrl: config.googleGeocodingUrl,
    geocoderUrl: config.geocoderUrl,
    userAgent: `Rounds (${contactEmail})`,
  };
}

/** An import's share of the online geocoder: at most this long in total (default 60 s) … */
export const IMPORT_ONLINE_BUDGET_MS = 60_000;
/** … and no more calls after this many failures in a row. */
export const IMPORT_ONLINE_MAX_FAILURES = 3;

export interface BatchOptions {
  /** The built-in sandbox's import: its synthetic street list places its own addresses first. */
  sandbox: boolean;
  budgetMs?: number;
  signal?: AbortSignal;
}

const CACHE_CHUNK = 500;

export class GeocodingService {
  readonly chain: GeocoderChain;
  readonly gazetteer = new AustralianGazetteer();
  readonly sandbox = new SandboxGeocoder();

  constructor(private readonly db: Db, online: Geocoder | null, private readonly log: Logger) {
    this.chain = new GeocoderChain(online, this.gazetteer);
  }

  /** Whether an online geocoder is configured (then gazetteer points are worth refining). */
  get hasOnline(): boolean {
    return this.chain.onlineGeocoder !== null;
  }

  /** One address, for a user waiting: the cache, else the chain (its online answer cached). */
  async geocode(businessAccountId: number, address: AddressParts, options: GeocodeOptions = {}): Promise<GeoPoint | null> {
    return (await this.batch(businessAccountId, { sandbox: false, budgetMs: Number.POSITIVE_INFINITY, signal: options.signal })
      .resolve([address]))[0];
  }

  /** A resolver for many addresses of one business, sharing one online budget (an import). */
  batch(businessAccountId: number, options: BatchOptions): PointBatch {
    return new PointBatch(this, businessAccountId, options);
  }

  /** @internal The online geocoder's cached answers for these keys. */
  async cached(businessAccountId: number, keys: string[]): Promise<Map<string, GeoPoint | null>> {
    const online = this.chain.onlineGeocoder;
    const found = new Map<string, GeoPoint | null>();
    if (!online || keys.length === 0) return found;
    const source = online.source as 'google' | 'nominatim';
    for (let start = 0; start < keys.length; start += CACHE_CHUNK) {
      const rows = await this.db.select().from(geocodeCache).where(and(
        eq(geocodeCache.business_account_id, businessAccountId), eq(geocodeCache.source, source),
        inArray(geocodeCache.address_key, keys.slice(start, start + CACHE_CHUNK)),
      ));
      for (const row of rows) {
        found.set(row.address_key, row.precision === 'none' || row.lat === null || row.lng === null
          ? null
          : { lat: row.lat, lng: row.lng, precision: row.precision, source, label: row.label ?? '' });
      }
    }
    return found;
  }

  /** @internal Remembers the online geocoder's answer (null: it found nothing). */
  async remember(businessAccountId: number, key: string, point: GeoPoint | null): Promise<void> {
    const online = this.chain.onlineGeocoder;
    if (!online) return;
    const values = {
      lat: point?.lat ?? null, lng: point?.lng ?? null, precision: point?.precision ?? 'none' as const, label: point?.label ?? null,
      created_at: new Date(),
    };
    await this.db.insert(geocodeCache)
      .values({ business_account_id: businessAccountId, source: online.source as 'google' | 'nominatim', address_key: key, ...values })
      .onConflictDoUpdate({ target: [geocodeCache.business_account_id, geocodeCache.source, geocodeCache.address_key], set: values });
  }

  /** @internal */
  warn(message: string, details: Record<string, unknown>): void {
    this.log.warn(details, message);
  }
}

/** Resolves addresses of one business with one online budget; use one per import. */
export class PointBatch {
  private spentMs = 0;
  private failuresInARow = 0;
  /** Addresses the online geocoder could not answer in this batch: not asked again by it. */
  private readonly failedKeys = new Set<string>();
  /** How many addresses went to the online geocoder, and how many of those it could not answer. */
  readonly stats = { online: 0, failed: 0, cached: 0 };

  constructor(private readonly service: GeocodingService, private readonly businessAccountId: number, private readonly options: BatchOptions) {}

  get sandbox(): boolean {
    return this.options.sandbox;
  }

  /** The precision of a point the sandbox sent for one of its own addresses. */
  sandboxPrecision(address: AddressParts): 'street' | 'suburb' {
    return this.service.sandbox.lookup(address)?.precision === 'street' ? 'street' : 'suburb';
  }

  /** Whether the online geocoder may still be called. */
  get onlineAvailable(): boolean {
    return this.service.hasOnline && this.spentMs < (this.options.budgetMs ?? IMPORT_ONLINE_BUDGET_MS)
      && this.failuresInARow < IMPORT_ONLINE_MAX_FAILURES;
  }

  /** Each address's point (null: nothing could place it), in order. Never throws for a geocoder's failure. */
  async resolve(addresses: readonly AddressParts[]): Promise<(GeoPoint | null)[]> {
    const results: (GeoPoint | null)[] = new Array(addresses.length).fill(null);
    const pending = new Map<string, number[]>();
    addresses.forEach((address, index) => {
      if (!hasAddress(address)) return;
      if (this.options.sandbox) {
        const own = this.service.sandbox.lookup(address);
        if (own) {
          results[index] = own;
          return;
        }
      }
      const key = addressKey(address);
      pending.set(key, [...(pending.get(key) ?? []), index]);
    });
    if (pending.size === 0) return results;
    const cache = await this.service.cached(this.businessAccountId, [...pending.keys()]);
    for (const [key, indexes] of pending) {
      const address = addresses[indexes[0]];
      let point: GeoPoint | null;
      if (cache.has(key)) {
        this.stats.cached += 1;
        point = cache.get(key) ?? this.service.gazetteer.lookup(address);
      } else if (this.onlineAvailable && !this.failedKeys.has(key)) {
        const started = Date.now();
        const result = await this.service.chain.resolve(address, { signal: this.options.signal });
        this.spentMs += Date.now() - started;
        this.stats.online += 1;
        point = result.point;
        if (result.online === 'failed') {
          this.failedKeys.add(key);
          this.failuresInARow += 1;
          this.stats.failed += 1;
          this.service.warn('the online geocoder could not answer; the gazetteer placed the address', { error: result.error?.message });
        } else {
          this.failuresInARow = 0;
          await this.service.remember(this.businessAccountId, key, result.online === 'found' ? result.point : null);
        }
      } else {
        point = this.service.gazetteer.lookup(address);
      }
      for (const index of indexes) results[index] = point;
    }
    return results;
  }
}
