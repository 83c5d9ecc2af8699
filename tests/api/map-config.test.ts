// The map's configuration: MAP_STYLE_URL and MAP_ATTRIBUTION reach the browser through GET /config, and the
// Content-Security-Policy lets the browser fetch the style's origin (and MAP_ORIGINS) and nothing else.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { startTestApp, type TestApp } from './support/app';

const ENV = { NODE_ENV: 'test', APP_SECRET: 'test-secret-test-secret-test-secret-123' };
const csp = (response: { headers: Record<string, unknown> }) => {
  const header = String(response.headers['content-security-policy']);
  return (directive: string) => header.split(';').map((part) => part.trim()).find((part) => part.startsWith(`${directive} `)) ?? '';
};

describe('with a style URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    const { mapStyleUrl, mapAttribution, mapOrigins } = loadConfig({
      ...ENV,
      MAP_STYLE_URL: 'https://styles.example.test/osm/style.json?key=abc',
      MAP_ATTRIBUTION: '  © OpenStreetMap contributors ',
      MAP_ORIGINS: 'https://tiles.example.test/some/path, https://fonts.example.test',
    });
    t = await startTestApp({ mapStyleUrl, mapAttribution, mapOrigins });
  }, 60_000);
  afterAll(() => t.close());

  it('GET /config names the style and the credit', async () => {
    const response = await t.request('GET', '/api/config');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      map_style_url: 'https://styles.example.test/osm/style.json?key=abc',
      map_attribution: '© OpenStreetMap contributors',
      road_geometry: false,
    });
  });

  it('lets the browser fetch the style, tile and glyph origins, and no other', async () => {
    const directive = csp(await t.request('GET', '/api/config'));
    for (const name of ['connect-src', 'img-src']) {
      expect(directive(name)).toContain('https://styles.example.test');
      expect(directive(name)).toContain('https://tiles.example.test');
      expect(directive(name)).toContain('https://fonts.example.test');
      expect(directive(name)).not.toContain('/some/path');
    }
    expect(directive('script-src')).not.toContain('example.test');
  });
});

describe('without one', () => {
  let t: TestApp;
  beforeAll(async () => { t = await startTestApp(); }, 60_000);
  afterAll(() => t.close());

  it('GET /config answers null, and the policy names no map origin', async () => {
    const response = await t.request('GET', '/api/config');
    expect(response.body).toMatchObject({ map_style_url: null, map_attribution: null, road_geometry: false });
    expect(csp(response)('connect-src')).toBe("connect-src 'self' https://maps.googleapis.com");
  });
});

describe('configuration checks', () => {
  it('refuses a style URL the browser could not fetch, and origins that are not addresses', () => {
    expect(() => loadConfig({ ...ENV, MAP_STYLE_URL: 'ftp://tiles.example.test/style.json' })).toThrow(/MAP_STYLE_URL must be an http or https address/);
    expect(() => loadConfig({ ...ENV, MAP_STYLE_URL: 'style.json' })).toThrow(/MAP_STYLE_URL must be a URL/);
    expect(() => loadConfig({ ...ENV, MAP_ORIGINS: 'tiles.example.test' })).toThrow(/MAP_ORIGINS must be comma-separated http or https origins/);
  });
});
