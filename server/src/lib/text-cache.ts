// A least-recently-used cache of strings bounded by their total length. Keys carry whatever makes an entry stale
// (a data version, say), so entries are never invalidated: outdated ones stop being asked for and age out.
export class TextCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  /** @param maxChars the total length kept; 0 keeps nothing. */
  constructor(private readonly maxChars: number) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Map keeps insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    if (this.maxChars === 0 || value.length > this.maxChars) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.size -= previous.length;
    }
    this.entries.set(key, value);
    this.size += value.length;
    for (const [oldestKey, oldest] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldestKey);
      this.size -= oldest.length;
    }
  }

  /** Total length held. */
  get chars(): number {
    return this.size;
  }
}
