import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { MapView } from '../../src/ui/map/MapView';
import { SvgMap } from '../../src/ui/map/SvgMap';
import { fitProjection, gridLines } from '../../src/ui/map/projection';
import { mapsLoaderOptions, resetMapsLoaderOptionsForTests } from '../../src/ui/map/googleLoader';
import { DEFAULT_MAP_CENTER, DEFAULT_MAP_HEIGHT } from '../../src/ui/map/mapTypes';
import { api, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

useFakeApi();

const BRISBANE = [
  { id: 1, lat: -27.47, lng: 153.02, title: 'CBD' },
  { id: 2, lat: -27.38, lng: 153.12, title: 'Airport' },
  { id: 3, lat: -27.55, lng: 152.95, title: 'Oxley' },
];

describe('map projection', () => {
  it('keeps north up and east right, inside the padded box', () => {
    const { project } = fitProjection(BRISBANE, 640, 200, 24);
    const [cbd, airport, oxley] = BRISBANE.map(project);
    expect(airport.y).toBeLessThan(cbd.y); // further north is higher
    expect(airport.x).toBeGreaterThan(cbd.x); // further east is to the right
    for (const point of [cbd, airport, oxley]) {
      expect(point.x).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(point.x).toBeLessThanOrEqual(640 - 24 + 1e-9);
      expect(point.y).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(point.y).toBeLessThanOrEqual(200 - 24 + 1e-9);
    }
  });

  it('centres a single point, and the default centre when there is nothing', () => {
    expect(fitProjection([{ lat: -27.5, lng: 153 }], 640, 200).project({ lat: -27.5, lng: 153 })).toEqual({ x: 320, y: 100 });
    expect(fitProjection([], 640, 200).project(DEFAULT_MAP_CENTER)).toEqual({ x: 320, y: 100 });
  });

  it('draws round-number grid lines', () => {
    expect(gridLines(152.93, 153.14)).toEqual([152.95, 153, 153.05, 153.1]);
    expect(gridLines(1, 1)).toEqual([]);
  });
});

describe('built-in map', () => {
  it('draws every marker and route', () => {
    render(<SvgMap markers={BRISBANE} routes={[{ id: 'r', points: BRISBANE }]} height={200} />);
    expect(screen.getByRole('img', { name: 'Map showing 3 locations' })).toBeInTheDocument();
    expect(screen.getAllByTestId('map-marker')).toHaveLength(3);
    expect(screen.getByTestId('map-route').getAttribute('points')!.split(' ')).toHaveLength(3);
  });

  it('is what MapView shows without a Google Maps key, at the default height', async () => {
    const view = renderWithServices(<MapView markers={BRISBANE.slice(0, 1)} />);
    const map = await screen.findByTestId('svg-map');
    expect(map).toHaveAccessibleName('Map showing CBD');
    expect(map).toHaveStyle({ height: `${DEFAULT_MAP_HEIGHT}px` });
    expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'builtin');
    view.unmount();
  });

  it('shows the built-in map while a configured Google map cannot load (offline)', async () => {
    server.use(http.get(api('/config'), () => HttpResponse.json({ product_name: 'Rounds', google_maps_api_key: 'test-key', help_url: 'x' })));
    const view = renderWithServices(<MapView markers={BRISBANE} />);
    expect(await screen.findByTestId('svg-map')).toHaveAttribute('data-marker-count', '3');
    view.unmount();
  });
});

describe('maps loader configuration', () => {
  it('is one configuration with the places library; a different one is an error', () => {
    resetMapsLoaderOptionsForTests();
    const first = mapsLoaderOptions('key-a');
    expect(first.libraries).toEqual(['places']);
    expect(mapsLoaderOptions('key-a')).toBe(first);
    expect(() => mapsLoaderOptions('key-b')).toThrow(/only one configuration/);
    resetMapsLoaderOptionsForTests();
  });
});
