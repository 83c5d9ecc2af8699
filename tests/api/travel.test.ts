// POST /travel: the legs between consecutive points, from OSRM when OSRM_URL is set (with the road's line when asked),
// else — or when OSRM fails — the optimiser's great-circle estimate.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const CBD = { lat: -27.4698, lng: 153.0251 };
const TOOWONG = { lat: -27.4848, lng: 152.9925 };
const CHERMSIDE = { lat: -27.3853, lng: 153.0307 };

describe('without OSRM', () => {
  let t: TestApp;
  let acme: BusinessFixture;
  beforeAll(async () => {
    t = await startTestApp();
    acme = await createBusinessFixture(t, 'acme');
  }, 60_000);
  afterAll(() => t.close());

  it('estimates each leg, a longer one taking longer, for every role', async () => {
    for (const role of ['admin', 'staff', 'practitioner'] as const) {
      const response = await t.request('POST', '/api/travel', { token: acme.tokens[role], body: { points: [CBD, TOOWONG, CHERMSIDE], geometry: true } });
      expect(response.status, role).toBe(200);
      expect(response.body.source).toBe('estimate');
      expect(response.body.geometry).toBeNull();
      const [short, long] = response.body.legs;
      expect(response.body.legs).toHaveLength(2);
      // About 3.5 km in a straight line × the road factor; Toowong → Chermside about 11 km.
      expect(short.travel_metres).toBeGreaterThan(3_500);
      expect(short.travel_metres).toBeLessThan(6_500);
      expect(long.travel_metres).toBeGreaterThan(short.travel_metres * 2);
      expect(long.travel_seconds).toBeGreaterThan(short.travel_seconds);
    }
  });

  it('answers 401 without a session and 422 for fewer than two points, too many, or a point off the globe', async () => {
    expect((await t.request('POST', '/api/travel', { body: { points: [CBD, TOOWONG] } })).status).toBe(401);
    for (const points of [[CBD], Array.from({ length: 101 }, () => CBD), [CBD, { lat: -91, lng: 153 }]]) {
      const response = await t.request('POST', '/api/travel', { token: acme.tokens.admin, body: { points } });
      expect(response.status).toBe(422);
      expect(response.body.message).toMatch(/points/);
    }
  });
});

describe('with OSRM', () => {
  let osrm: Server;
  let failing = false;
  const asked: string[] = [];
  let t: TestApp;
  let acme: BusinessFixture;
  beforeAll(async () => {
    osrm = createServer((request, response) => {
      asked.push(request.url ?? '');
      if (failing) {
        response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'InternalError' }));
        return;
      }
      const coordinates = decodeURIComponent(request.url!.split('/route/v1/driving/')[1].split('?')[0]).split(';').map((pair) => pair.split(',').map(Number));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        code: 'Ok',
        routes: [{
          geometry: { type: 'LineString', coordinates: [coordinates[0], [153.01, -27.475], ...coordinates.slice(1)] },
          legs: coordinates.slice(1).map((_, index) => ({ duration: 600.4 + index, distance: 5_000.6 + index })),
        }],
      }));
    });
    await new Promise<void>((resolve) => osrm.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({ osrmUrl: `http://127.0.0.1:${(osrm.address() as AddressInfo).port}/` });
    acme = await createBusinessFixture(t, 'acme');
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => osrm.close(() => resolve()));
  });

  it("answers OSRM's legs and, when asked, the road's line (GET /config says it can)", async () => {
    expect((await t.request('GET', '/api/config')).body.road_geometry).toBe(true);
    const response = await t.request('POST', '/api/travel', { token: acme.tokens.practitioner, body: { points: [CBD, TOOWONG], geometry: true } });
    expect(response.body).toEqual({
      source: 'osrm',
      legs: [{ travel_seconds: 600, travel_metres: 5_001 }],
      geometry: [{ lat: -27.4698, lng: 153.0251 }, { lat: -27.475, lng: 153.01 }, { lat: -27.4848, lng: 152.9925 }],
    });
    expect(asked.at(-1)).toBe('/route/v1/driving/153.025100,-27.469800;152.992500,-27.484800?overview=full&geometries=geojson&steps=false');

    const withoutLine = await t.request('POST', '/api/travel', { token: acme.tokens.practitioner, body: { points: [CBD, TOOWONG] } });
    expect(withoutLine.body.geometry).toBeNull();
    expect(asked.at(-1)).toContain('overview=false');
  });

  it('estimates instead when OSRM fails', async () => {
    failing = true;
    const response = await t.request('POST', '/api/travel', { token: acme.tokens.admin, body: { points: [CBD, TOOWONG], geometry: true } });
    failing = false;
    expect(response.status).toBe(200);
    expect(response.body.source).toBe('estimate');
    expect(response.body.geometry).toBeNull();
    expect(response.body.legs[0].travel_metres).toBeGreaterThan(3_500);
  });
});
