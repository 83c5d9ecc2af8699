/**
 * Where a Cliniko API key's account lives. Keys end in a shard suffix after the last '-'
 * ("MxJr…NyJ9-au2" → au2); keys without one (older keys) belong to au1.
 */
const SHARD_PATTERN = /^[a-z]{2,3}\d{1,2}$/;
export const DEFAULT_SHARD = 'au1';

export function shardFromApiKey(apiKey: string): string {
  const dash = apiKey.lastIndexOf('-');
  if (dash < 0) return DEFAULT_SHARD;
  const suffix = apiKey.slice(dash + 1);
  // A '-' inside the key body is not a shard marker; only a shard-shaped suffix counts.
  return SHARD_PATTERN.test(suffix) ? suffix : DEFAULT_SHARD;
}

/**
 * The API root including the version path, without a trailing slash. `override` (CLINIKO_BASE_URL) wins;
 * an override that is only an origin ("http://127.0.0.1:8100") gets "/v1" appended.
 */
export function resolveClinikoBaseUrl(apiKey: string, override?: string | null): string {
  if (override && override.trim() !== '') {
    let url: URL;
    try {
      url = new URL(override.trim());
    } catch {
      throw new Error(`baseUrl: not a valid URL: ${JSON.stringify(override)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new Error(`baseUrl: must be http(s), got ${url.protocol}`);
    }
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.origin}${path === '' ? '/v1' : path}`;
  }
  return `https://api.${shardFromApiKey(apiKey)}.cliniko.com/v1`;
}
