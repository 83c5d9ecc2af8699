// A least-recently-used cache of strings bounded by their total length. Keys carry whatever makes an entry stale
// (a data version, say), so entries are never invalidated: outdated ones stop being asked for and age out, or their
// owner deletes them.
export class TextCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  /**
   * @param maxChars the total length kept; 0 keeps nothing.
   * @param onEvict told of each key dropped to make room (not of keys deleted or replaced).
   */
  constructor(private readonly maxChars: number, private readonly onEvict?: (key: string) => void) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` under `key`; false when it is larger than the whole cache (nothing kept). */
  set(key: string, value: string): boolean {
    if (this.maxChars === 0 || value.length > this.maxChars) return false;
    this.delete(key);
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldestKey);
      this.size -= oldest.length;
      this.onEvict?.(oldestKey);
    }
    return true;
  }

  delete(key: string): void {
    const previous = this.entries.get(key);
    if (previous === undefined) return;
    this.entries.delete(key);
    this.size -= previous.length;
  }

  /** Total length held. */
  get chars(): number {
    return this.size;
  }

  /** Entries held. */
  get count(): number {
    return this.entries.size;
  }
}
