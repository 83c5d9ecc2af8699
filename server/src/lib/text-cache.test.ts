import { describe, expect, it } from 'vitest';
import { TextCache } from './text-cache';

describe('TextCache', () => {
  it('gives back what it holds and drops the least recently used beyond its size', () => {
    const cache = new TextCache(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa'); // a is now the most recently used
    cache.set('c', 'cccc');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaa');
    expect(cache.get('c')).toBe('cccc');
    expect(cache.chars).toBe(8);
  });

  it('replaces an entry without counting it twice, and keeps nothing larger than itself', () => {
    const cache = new TextCache(10);
    cache.set('a', 'aaaa');
    cache.set('a', 'aaaaaa');
    expect(cache.chars).toBe(6);
    cache.set('big', 'x'.repeat(11));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('a')).toBe('aaaaaa');
  });

  it('keeps nothing at size 0', () => {
    const cache = new TextCache(0);
    cache.set('a', 'a');
    expect(cache.get('a')).toBeUndefined();
  });
});
