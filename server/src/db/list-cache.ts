// Rendered list responses, kept until the business's data changes. `business_accounts.lists_version` is moved by
// triggers whenever anything the appointments or clients lists show changes (migration 0030), by whichever process
// writes it; every read first reads that version (one primary-key lookup), so no process answers with a list older
// than the committed data. An authenticated request has read the version already, with its session
// (AuthContext.lists): it is passed in instead of read again.
//
// A change makes new keys, and the business's entries rendered at an older version are dropped the first time the
// newer one is seen: they can never be asked for again (the version only moves up), and kept until the
// least-recently-used order reached them they filled the cache to its bound under steady writes (bench:load --long:
// the appointments list's 32 MB of bodies, almost all of them superseded).
import { eq, sql } from 'drizzle-orm';
import { TextCache } from '../lib/text-cache';
import { listCacheLookups } from '../operations/metrics';
import type { Db } from './client';
import { businessAccounts } from './schema';

/** What a business's cached lists are keyed by: `business_accounts.lists_version` and its time zone. */
export interface ListsVersion {
  version: number;
  timeZone: string;
}

/** A business's current version and time zone, and the keys of its entries rendered at them. */
interface Generation extends ListsVersion {
  keys: Set<string>;
}

function versionQuery(db: Db) {
  return db.select({ version: businessAccounts.lists_version, timeZone: businessAccounts.time_zone })
    .from(businessAccounts).where(eq(businessAccounts.id, sql.placeholder('id'))).prepare('list_cache_version');
}

export class ListCache {
  private readonly texts: TextCache;
  private readonly enabled: boolean;
  private readonly generations = new Map<number, Generation>();

  /** Read when a request has not read the version: built once, and prepared once per connection. */
  private versionQuery?: ReturnType<typeof versionQuery>;

  constructor(private readonly db: Db, maxMegabytes: number) {
    // A key dropped for room leaves its generation's list too, so that list never outgrows the cache.
    this.texts = new TextCache(maxMegabytes * 1024 * 1024, (key) => this.generations.get(businessOfKey(key))?.keys.delete(key));
    this.enabled = maxMegabytes > 0;
  }

  /**
   * The cached rendering of `request` for the business, or `render()`'s, kept for next time. `known`: the business's
   * version and time zone as this request has already read them (with its session), else they are read here.
   */
  async through(businessAccountId: number, request: unknown, render: () => Promise<string>, known?: ListsVersion): Promise<string> {
    if (!this.enabled) return render(); // turned off: no version read either
    let business = known;
    if (!business) {
      this.versionQuery ??= versionQuery(this.db);
      [business] = await this.versionQuery.execute({ id: businessAccountId });
    }
    const generation = business && this.generationOf(businessAccountId, business);
    if (!generation) {
      // No such business, or a version older than one already seen (a request that read it just before a write and
      // got here after a later one): rendered as asked, not kept.
      listCacheLookups.inc({ result: 'miss' });
      return render();
    }
    // The time zone is part of the key: appointments lists read their days in it.
    const key = JSON.stringify([businessAccountId, generation.version, generation.timeZone, request]);
    const cached = this.texts.get(key);
    listCacheLookups.inc({ result: cached === undefined ? 'miss' : 'hit' });
    if (cached !== undefined) return cached;
    const text = await render();
    // Kept only while its generation is still the business's current one (a newer version may have come meanwhile).
    if (this.generations.get(businessAccountId) === generation && this.texts.set(key, text)) generation.keys.add(key);
    return text;
  }

  /** The business's generation for `business`'s version and time zone: a newer one drops the older one's entries. */
  private generationOf(businessAccountId: number, business: ListsVersion): Generation | undefined {
    const current = this.generations.get(businessAccountId);
    if (current && current.version === business.version && current.timeZone === business.timeZone) return current;
    if (current && business.version < current.version) return undefined;
    if (current) for (const key of current.keys) this.texts.delete(key);
    const next: Generation = { version: business.version, timeZone: business.timeZone, keys: new Set() };
    this.generations.set(businessAccountId, next);
    return next;
  }

  /** Entries held, their total length, and the keys the generations list (never more than the entries). */
  get size(): { entries: number; chars: number; listedKeys: number } {
    let listedKeys = 0;
    for (const generation of this.generations.values()) listedKeys += generation.keys.size;
    return { entries: this.texts.count, chars: this.texts.chars, listedKeys };
  }
}

/** Keys are JSON arrays that start with the business's id. */
const businessOfKey = (key: string) => Number.parseInt(key.slice(1), 10);
