import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location, TravelMatrix, TravelProvider } from '../types';
import { CachedTravelProvider } from './cache';
import { euclideanMatrix } from './euclidean';
import { greatCircleMetres, HaversineProvider, roadSecondsFor } from './haversine';
import { OsrmProvider } from './osrm';

const brisbane: Location = { lat: -27.4698, lng: 153.0251 };
const ipswich: Location = { lat: -27.6144, lng: 152.7608 };

describe('haversine provider', () => {
  it('measures great-circle distance', () => {
    // Brisbane CBD to Ipswich is about 31 km as the crow flies.
    expect(greatCircleMetres(brisbane, ipswich) / 1000).toBeGreaterThan(30);
    expect(greatCircleMetres(brisbane, ipswich) / 1000).toBeLessThan(32.5);
  });

  it('drives each stretch of a leg at its band speed', () => {
    const bands = [
      { upToMetres: 1000, kmPerHour: 36 },
      { upToMetres: Infinity, kmPerHour: 72 },
    ];
    expect(roadSecondsFor(500, bands)).toBeCloseTo(50);
    expect(roadSecondsFor(3000, bands)).toBeCloseTo(100 + 100);
  });

  it('applies the circuity factor and is zero on the diagonal', async () => {
    const p = new HaversineProvider({ circuity: 1.5 });
    const m = await p.matrix([brisbane, ipswich]);
    expect(m.distances[1]).toBeCloseTo(greatCircleMetres(brisbane, ipswich) * 1.5);
    expect(m.durations[0]).toBe(0);
    expect(m.durations[1]).toBeGreaterThan(0);
  });

  it('rejects a circuity below 1', () => {
    expect(() => new HaversineProvider({ circuity: 0.9 })).toThrow(/circuity/);
  });
});

describe('cached provider', () => {
  it('asks the inner provider once for repeated and sub-set requests', async () => {
    let calls = 0;
    const inner: TravelProvider = {
      name: 'counting',
      async matrix(locs) {
        calls++;
        return euclideanMatrix(locs);
      },
    };
    const cached = new CachedTravelProvider(inner);
    const a = { lat: 0, lng: 0 }, b = { lat: 3, lng: 4 }, c = { lat: 6, lng: 8 };
    const m1 = await cached.matrix([a, b, c, a]);
    const m2 = await cached.matrix([c, a]);
    expect(calls).toBe(1);
    expect(m1.distances[1]).toBeCloseTo(5);
    expect(m1.distances[0 * 4 + 3]).toBe(0);
    expect(m2.distances[1]).toBeCloseTo(10);
    await cached.matrix([a, { lat: 1, lng: 1 }]);
    expect(calls).toBe(2);
  });
});

describe('OSRM table adapter', () => {
  let server: Server;
  let url = '';
  const requests: string[] = [];
  const points: Location[] = [
    { lat: -27.47, lng: 153.02 },
    { lat: -27.5, lng: 153.05 },
    { lat: -27.52, lng: 152.99 },
    { lat: -27.45, lng: 153.1 },
    { lat: -27.6, lng: 153.0 },
  ];
  // A fake road network: time = 100 × (|Δlat| + |Δlng|) × 1000, distance = 10 × time.
  const fakeTime = (a: number[], b: number[]) => Math.round(100_000 * (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1])));

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url!);
      const u = new URL(req.url!, 'http://x');
      const m = u.pathname.match(/^\/table\/v1\/driving\/(.+)$/);
      res.setHeader('content-type', 'application/json');
      if (!m) {
        res.statusCode = 400;
        res.end(JSON.stringify({ code: 'InvalidUrl', message: 'bad path' }));
        return;
      }
      const coords = m[1].split(';').map((s) => s.split(',').map(Number));
      if (coords.length > 4) {
        res.statusCode = 400;
        res.end(JSON.stringify({ code: 'TooBig', message: 'Too many table coordinates' }));
        return;
      }
      const src = (u.searchParams.get('sources') ?? '').split(';').map(Number);
      const dst = (u.searchParams.get('destinations') ?? '').split(';').map(Number);
      const durations = src.map((i) => dst.map((j) => fakeTime(coords[i], coords[j])));
      const distances = durations.map((row) => row.map((t) => t * 10));
      res.end(JSON.stringify({ code: 'Ok', durations, distances, sources: [], destinations: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('builds the full matrix in blocks that respect the table size', async () => {
    const m: TravelMatrix = await new OsrmProvider({ url, maxTableSize: 4 }).matrix(points);
    expect(requests.length).toBe(9); // 3 × 3 blocks of at most 2 sources × 2 destinations
    for (let i = 0; i < points.length; i++) {
      for (let j = 0; j < points.length; j++) {
        const a = [points[i].lng, points[i].lat], b = [points[j].lng, points[j].lat];
        expect(m.durations[i * 5 + j]).toBe(fakeTime(a, b));
        expect(m.distances[i * 5 + j]).toBe(fakeTime(a, b) * 10);
      }
    }
  });

  it('reports OSRM errors with their code', async () => {
    await expect(new OsrmProvider({ url, maxTableSize: 10 }).matrix(points)).rejects.toThrow(/TooBig/);
  });

  it('needs a URL', () => {
    const saved = process.env.OSRM_URL;
    delete process.env.OSRM_URL;
    expect(() => new OsrmProvider()).toThrow(/OSRM_URL/);
    if (saved !== undefined) process.env.OSRM_URL = saved;
  });
});

describe('OSRM route adapter', () => {
  /** A fake OSRM answering `legs` legs, with one bend between the first two points; records the URLs asked. */
  const fakeOsrm = (legs: number, asked: string[]): typeof fetch => async (input) => {
    asked.push(String(input));
    return new Response(JSON.stringify({
      code: 'Ok',
      routes: [{
        geometry: { type: 'LineString', coordinates: [[153.0251, -27.4698], [153.01, -27.475], [152.7608, -27.6144]] },
        legs: Array.from({ length: legs }, (_, index) => ({ duration: 600.4 + index, distance: 5_000.6 + index })),
      }],
    }), { headers: { 'content-type': 'application/json' } });
  };

  it("answers the route service's legs and, when asked, its line as points", async () => {
    const asked: string[] = [];
    const osrm = new OsrmProvider({ url: 'http://osrm.test/', fetchImpl: fakeOsrm(1, asked) });
    expect(await osrm.route([brisbane, ipswich], { geometry: true })).toEqual({
      legs: [{ duration: 600.4, distance: 5_000.6 }],
      geometry: [brisbane, { lat: -27.475, lng: 153.01 }, ipswich],
    });
    expect(asked).toEqual(['http://osrm.test/route/v1/driving/153.025100,-27.469800;152.760800,-27.614400?overview=full&geometries=geojson&steps=false']);
    expect((await osrm.route([brisbane, ipswich])).geometry).toBeNull();
    expect(asked[1]).toContain('?overview=false&steps=false');
  });

  it('refuses an answer whose legs are not the legs asked for', async () => {
    const osrm = new OsrmProvider({ url: 'http://osrm.test', fetchImpl: fakeOsrm(1, []) });
    await expect(osrm.route([brisbane, ipswich, brisbane])).rejects.toThrow(/OSRM answered HTTP 200 Ok/);
  });
});
