// Rendered list responses, kept until the business's data changes. `business_accounts.lists_version` is moved by
// triggers whenever anything the appointments or clients lists show changes (migration 0030), by whichever process
// writes it; every read first reads that version (one primary-key lookup), so no process answers with a list older
// than the committed data. A change simply makes new keys; old entries age out of the least-recently-used cache.
// An authenticated request has read the version already, with its session (AuthContext.lists): it is passed in
// instead of read again.
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

export class ListCache {
  private readonly texts: TextCache;
  private readonly enabled: boolean;

  /** Read on every list request: built once, and prepared once per connection (no SQL building or planning each time). */
  private readonly versionQuery;

  constructor(db: Db, maxMegabytes: number) {
    this.texts = new TextCache(maxMegabytes * 1024 * 1024);
    this.enabled = maxMegabytes > 0;
    this.versionQuery = db.select({ version: businessAccounts.lists_version, timeZone: businessAccounts.time_zone })
      .from(businessAccounts).where(eq(businessAccounts.id, sql.placeholder('id'))).prepare('list_cache_version');
  }

  /**
   * The cached rendering of `request` for the business, or `render()`'s, kept for next time. `known`: the business's
   * version and time zone as this request has already read them (with its session), else they are read here.
   */
  async through(businessAccountId: number, request: unknown, render: () => Promise<string>, known?: ListsVersion): Promise<string> {
    if (!this.enabled) return render(); // turned off: no version read either
    const business = known ?? (await this.versionQuery.execute({ id: businessAccountId }))[0];
    // The time zone is part of the key: appointments lists read their days in it.
    const key = JSON.stringify([businessAccountId, business?.version, business?.timeZone, request]);
    const cached = this.texts.get(key);
    listCacheLookups.inc({ result: cached === undefined ? 'miss' : 'hit' });
    if (cached !== undefined) return cached;
    const text = await render();
    this.texts.set(key, text);
    return text;
  }
}
