// Shared by the issue-5 component and model tests: the real app services (auth restored as a signed-in
// user), msw for the API, and a render helper that mounts a view with toasts and the modal host.
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { vi } from 'vitest';
import { ServicesProvider } from '../../src/app/ServicesContext';
import { createAppServices, type AppServices } from '../../src/app/services';
import type { Role } from '../../src/api/types';
import type { components } from '../../src/api/schema';
import { makeUser } from '../../src/testing/users';
import { Toasts } from '../../src/shell/Toasts';
import { ModalHost } from '../../src/shell/ModalHost';

type Schemas = components['schemas'];

/** Every request the app made, for asserting what was sent. */
export interface SentRequest {
  method: string;
  path: string;
  search: string;
  body: unknown;
}

export const api = (path: string) => `*/api${path}`;

/** The calls every signed-in screen makes at start-up. */
export function baseHandlers(role: Role = 'ADMIN'): RequestHandler[] {
  return [
    http.get(api('/auth/user'), () => HttpResponse.json({ user: makeUser(role) })),
    http.get(api('/provider_account/current'), () =>
      HttpResponse.json({
        provider_account: { id: 1, provider: 'cliniko', status: 'ACTIVE', api_key_last4: '1234', last_error: null, connected_at: '2026-01-01T00:00:00Z' },
      }),
    ),
    http.get(api('/config'), () => HttpResponse.json({ product_name: 'Rounds', google_maps_api_key: null, help_url: 'https://help.example.test', map_style_url: null, map_attribution: null, road_geometry: false })),
  ];
}

export function createTestServer() {
  const server = setupServer(...baseHandlers());
  const sent: SentRequest[] = [];
  server.events.on('request:start', async ({ request }) => {
    const url = new URL(request.url);
    let body: unknown = undefined;
    if (request.method !== 'GET' && request.method !== 'DELETE') {
      const text = await request.clone().text();
      body = text ? JSON.parse(text) : undefined;
    }
    sent.push({ method: request.method, path: url.pathname, search: url.search, body });
  });
  return { server, sent };
}

export function renderWithServices(ui: ReactNode, options: { role?: Role } = {}): { services: AppServices; unmount: () => void } {
  const services = createAppServices({
    navigate: vi.fn(),
    authInput: { token: 'test-token', user: makeUser(options.role ?? 'ADMIN') },
  });
  const result = render(
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <Toasts />
        <ModalHost />
        {ui}
      </QueryClientProvider>
    </ServicesProvider>,
  );
  return {
    services,
    unmount: () => {
      result.unmount();
      services.stop();
    },
  };
}

export function makeTag(id: number, name: string, color = '#16a34a'): Schemas['Tag'] {
  return { id, name, color };
}

export function makeClient(overrides: Partial<Schemas['Client']> = {}): Schemas['Client'] {
  return {
    id: 11,
    full_name: 'Margaret Jones',
    first_name: 'Margaret',
    last_name: 'Jones',
    dob: '1941-12-31',
    email: 'margaret@example.test',
    location: { address_1: '12 Given Tce', city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' },
    phone_numbers: [{ number: '0400 000 111', phone_type: 'Mobile' }],
    time_zone: 'Australia/Brisbane',
    tags: [],
    availability: [],
    lat: -27.46,
    lng: 152.99,
    geo_precision: 'address',
    geo_source: 'google',
    ...overrides,
  };
}

export function makeAppointment(overrides: Partial<Schemas['Appointment']> = {}): Schemas['Appointment'] {
  return {
    id: 501,
    starts_at: '2026-11-23T23:00:00Z', // Tue 24 Nov 09:00 Brisbane
    ends_at: '2026-11-24T00:00:00Z',
    arrive_at: '2026-11-23T22:50:00Z',
    route_id: null,
    arrival_locked: false,
    notes: 'Key under the mat',
    lat: -27.46,
    lng: 152.99,
    cancelled_at: null,
    status: 'BOOKED',
    suburb: 'Paddington',
    location: { address_1: '12 Given Tce', city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' },
    client: { id: 11, full_name: 'Margaret Jones', time_zone: 'Australia/Brisbane', availability: [] },
    practitioner: { id: 7, full_name: 'Pat Nguyen', active: true, time_zone: 'Australia/Brisbane' },
    appointment_type: { id: 3, name: 'Home visit', duration: 60, color: '#0284c7' },
    business_location: null,
    ...overrides,
  };
}

/** A response the test releases later, to observe the in-between (saving) state. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
