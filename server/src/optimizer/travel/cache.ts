import type { Location, TravelMatrix, TravelProvider } from '../types';
import { emptyMatrix } from './matrix';

const keyOf = (l: Location) => `${l.lat},${l.lng}`;

/**
 * Caches an inner provider's legs by location pair. A request whose pairs are all cached costs no
 * call; otherwise the inner provider is asked once for the distinct locations of the request.
 */
export class CachedTravelProvider implements TravelProvider {
  readonly name: string;
  private readonly legs = new Map<string, Map<string, [number, number]>>();
  /** How many times the inner provider was called (for tests and diagnostics). */
  innerCalls = 0;

  constructor(private readonly inner: TravelProvider, private readonly maxPairs = 5_000_000) {
    this.name = `cached(${inner.name})`;
  }

  /** How many location pairs are cached (counted as they are added, not by walking the cache on every miss). */
  private pairs = 0;

  get size(): number {
    return this.pairs;
  }

  async matrix(locations: Location[]): Promise<TravelMatrix> {
    const keys = locations.map(keyOf);
    const distinct: Location[] = [];
    const distinctIndex = new Map<string, number>();
    keys.forEach((k, i) => {
      if (!distinctIndex.has(k)) {
        distinctIndex.set(k, distinct.length);
        distinct.push(locations[i]);
      }
    });
    if (!this.allCached([...distinctIndex.keys()])) {
      this.innerCalls++;
      const sub = await this.inner.matrix(distinct);
      const dk = [...distinctIndex.keys()];
      if (this.pairs + dk.length * dk.length > this.maxPairs) {
        this.legs.clear();
        this.pairs = 0;
      }
      for (let i = 0; i < dk.length; i++) {
        let row = this.legs.get(dk[i]);
        if (!row) this.legs.set(dk[i], (row = new Map()));
        for (let j = 0; j < dk.length; j++) {
          if (!row.has(dk[j])) this.pairs++;
          row.set(dk[j], [sub.durations[i * sub.size + j], sub.distances[i * sub.size + j]]);
        }
      }
    }
    const m = emptyMatrix(locations.length);
    for (let i = 0; i < keys.length; i++) {
      const row = this.legs.get(keys[i])!;
      for (let j = 0; j < keys.length; j++) {
        const leg = row.get(keys[j])!;
        m.durations[i * m.size + j] = leg[0];
        m.distances[i * m.size + j] = leg[1];
      }
    }
    return m;
  }

  private allCached(keys: string[]): boolean {
    for (const a of keys) {
      const row = this.legs.get(a);
      if (!row) return false;
      for (const b of keys) if (!row.has(b)) return false;
    }
    return true;
  }
}
