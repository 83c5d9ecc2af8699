// A real HTTP server on loopback standing in for Nominatim or Google's Geocoding API: it records every request and
// answers with what the test's handler says (JSON, an HTTP error, or nothing at all until it is closed).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Date.now() when it arrived. */
  at: number;
}

export type StubAnswer = { status?: number; json: unknown } | { status: number; text: string } | 'hang';
export type StubHandler = (request: StubRequest) => StubAnswer;

export interface GeocoderStub {
  /** "http://127.0.0.1:PORT" */
  origin: string;
  requests: StubRequest[];
  setHandler(handler: StubHandler): void;
  close(): Promise<void>;
}

export async function startGeocoderStub(handler: StubHandler): Promise<GeocoderStub> {
  let current = handler;
  const requests: StubRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const request: StubRequest = { path: url.pathname, query: url.searchParams, headers: req.headers, at: Date.now() };
    requests.push(request);
    const answer = current(request);
    if (answer === 'hang') {
      hanging.add(res);
      return;
    }
    if ('json' in answer) {
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
    } else {
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.text);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next) {
      current = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Nominatim place as /search?format=jsonv2 lists it. */
export function nominatimPlace(lat: number, lng: number, placeRank: number, displayName: string) {
  return { lat: String(lat), lon: String(lng), place_rank: placeRank, display_name: displayName, category: 'place', type: 'house' };
}

/** A Google Geocoding answer with one result. */
export function googleAnswer(lat: number, lng: number, types: string[], locationType: string, formatted: string) {
  return { status: 'OK', results: [{ formatted_address: formatted, types, geometry: { location: { lat, lng }, location_type: locationType } }] };
}
