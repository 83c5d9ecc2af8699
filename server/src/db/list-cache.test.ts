import { describe, expect, it, vi } from 'vitest';
import type { Db } from './client';
import { ListCache, type ListsVersion } from './list-cache';

// Every call passes the version as a request that read it with its session does, so no database is asked.
const noDatabase = {} as Db;
const at = (version: number, timeZone = 'Australia/Brisbane'): ListsVersion => ({ version, timeZone });
const rendering = (text: string) => vi.fn(async () => text);

describe('ListCache', () => {
  it('answers a request again from what it rendered, until the business’s version moves', async () => {
    const cache = new ListCache(noDatabase, 1);
    const render = rendering('page 1 at 1');
    expect(await cache.through(1, ['clients', 1], render, at(1))).toBe('page 1 at 1');
    expect(await cache.through(1, ['clients', 1], render, at(1))).toBe('page 1 at 1');
    expect(render).toHaveBeenCalledTimes(1);
    expect(await cache.through(1, ['clients', 1], rendering('page 1 at 2'), at(2))).toBe('page 1 at 2');
  });

  it('drops a business’s entries of an older version once a newer one is seen, and keeps other businesses’', async () => {
    const cache = new ListCache(noDatabase, 1);
    await cache.through(1, 'a', rendering('A1'), at(1));
    await cache.through(1, 'b', rendering('B1'), at(1));
    await cache.through(2, 'a', rendering('other business'), at(1));
    expect(cache.size.entries).toBe(3);
    await cache.through(1, 'a', rendering('A2'), at(2));
    expect(cache.size).toEqual({ entries: 2, chars: 'A2'.length + 'other business'.length, listedKeys: 2 });
    const otherBusiness = rendering('not asked');
    expect(await cache.through(2, 'a', otherBusiness, at(1))).toBe('other business');
    expect(otherBusiness).not.toHaveBeenCalled();
  });

  it('stays as large as one version’s entries under steady writes, well below its bound', async () => {
    const cache = new ListCache(noDatabase, 1);
    for (let version = 1; version <= 2000; version++) {
      for (let page = 1; page <= 5; page++) await cache.through(1, ['clients', page], rendering(`page ${page} at ${version}`), at(version));
    }
    // Kept to the bound by age alone, it would hold all 10,000 renderings (about 150,000 characters < 1 MB).
    expect(cache.size.entries).toBe(5);
    expect(cache.size.listedKeys).toBe(5);
  });

  it('answers a request that read an older version by rendering it, neither keeping it nor dropping the newer entries', async () => {
    const cache = new ListCache(noDatabase, 1);
    await cache.through(1, 'a', rendering('A2'), at(2));
    const late = rendering('A1');
    expect(await cache.through(1, 'a', late, at(1))).toBe('A1');
    expect(await cache.through(1, 'a', late, at(1))).toBe('A1');
    expect(late).toHaveBeenCalledTimes(2);
    const current = rendering('not asked');
    expect(await cache.through(1, 'a', current, at(2))).toBe('A2');
    expect(current).not.toHaveBeenCalled();
  });

  it('does not keep what was rendered while a newer version arrived', async () => {
    const cache = new ListCache(noDatabase, 1);
    let finish!: (text: string) => void;
    const slow = cache.through(1, 'a', () => new Promise<string>((resolve) => { finish = resolve; }), at(1));
    await cache.through(1, 'b', rendering('B2'), at(2));
    finish('A1');
    expect(await slow).toBe('A1');
    expect(cache.size).toEqual({ entries: 1, chars: 2, listedKeys: 1 });
  });

  it('renders again when the business’s time zone changes at the same version', async () => {
    const cache = new ListCache(noDatabase, 1);
    await cache.through(1, 'day', rendering('in Brisbane'), at(1));
    expect(await cache.through(1, 'day', rendering('in Perth'), at(1, 'Australia/Perth'))).toBe('in Perth');
    expect(cache.size.entries).toBe(1);
  });

  it('lists only the keys it still holds when entries are dropped for room', async () => {
    const cache = new ListCache(noDatabase, 100 / 1024 / 1024); // 100 characters
    for (let page = 1; page <= 50; page++) await cache.through(1, ['clients', page], rendering('x'.repeat(30)), at(1));
    expect(cache.size).toEqual({ entries: 3, chars: 90, listedKeys: 3 });
  });

  it('keeps nothing when turned off', async () => {
    const cache = new ListCache(noDatabase, 0);
    const render = rendering('text');
    await cache.through(1, 'a', render, at(1));
    await cache.through(1, 'a', render, at(1));
    expect(render).toHaveBeenCalledTimes(2);
    expect(cache.size.entries).toBe(0);
  });
});
