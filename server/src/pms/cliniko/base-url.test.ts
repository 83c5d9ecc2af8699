import { describe, expect, it } from 'vitest';
import { ClinikoAdapter } from './cliniko-adapter';
import { resolveClinikoBaseUrl, shardFromApiKey } from './base-url';

describe('shardFromApiKey', () => {
  it('takes the suffix after the last dash', () => {
    expect(shardFromApiKey('MxJrZXkiOiI1Njd1amJmZTQ1NyJ9-au2')).toBe('au2');
    expect(shardFromApiKey('abc-def-uk1')).toBe('uk1');
  });

  it('falls back to au1 without a suffix or with a suffix that is not a shard', () => {
    expect(shardFromApiKey('MxJrZXkiOiI1Njd1amJmZTQ1NyJ9')).toBe('au1');
    expect(shardFromApiKey('abc-notashard!')).toBe('au1');
    expect(shardFromApiKey('abc-')).toBe('au1');
  });
});

describe('resolveClinikoBaseUrl', () => {
  it('builds the shard URL', () => {
    expect(resolveClinikoBaseUrl('key-ca1')).toBe('https://api.ca1.cliniko.com/v1');
    expect(resolveClinikoBaseUrl('key')).toBe('https://api.au1.cliniko.com/v1');
  });

  it('lets an override win, adding /v1 to a bare origin and trimming trailing slashes', () => {
    expect(resolveClinikoBaseUrl('key-au2', 'http://127.0.0.1:8100')).toBe('http://127.0.0.1:8100/v1');
    expect(resolveClinikoBaseUrl('key-au2', 'http://127.0.0.1:8100/v1/')).toBe('http://127.0.0.1:8100/v1');
    expect(resolveClinikoBaseUrl('key-au2', '  ')).toBe('https://api.au2.cliniko.com/v1');
  });

  it('rejects an override that is not an http(s) URL, naming the option', () => {
    expect(() => resolveClinikoBaseUrl('key', 'not a url')).toThrow(/baseUrl/);
    expect(() => resolveClinikoBaseUrl('key', 'ftp://example.com')).toThrow(/baseUrl/);
  });
});

describe('ClinikoAdapter options', () => {
  it('exposes the derived base URL', () => {
    expect(new ClinikoAdapter({ apiKey: 'k-uk2', contactEmail: 'ops@rounds.test' }).baseUrl).toBe(
      'https://api.uk2.cliniko.com/v1',
    );
  });

  it('requires a key and a contact email for the User-Agent', () => {
    expect(() => new ClinikoAdapter({ apiKey: '', contactEmail: 'ops@rounds.test' })).toThrow(/apiKey/);
    expect(() => new ClinikoAdapter({ apiKey: 'k', contactEmail: 'nobody' })).toThrow(/contactEmail/);
    expect(() => new ClinikoAdapter({ apiKey: 'k', contactEmail: 'a@b.co', perPage: 101 })).toThrow(/perPage/);
  });
});
