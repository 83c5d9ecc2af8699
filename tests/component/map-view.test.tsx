import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MapView } from '../../src/ui/map/MapView';
import { SvgMap } from '../../src/ui/map/SvgMap';
import { buildMapModel } from '../../src/lib/map/mapModel';
import { fitProjection, gridLines } from '../../src/ui/map/projection';
import { mapsLoaderOptions, resetMapsLoaderOptionsForTests } from '../../src/ui/map/googleLoader';
import { DEFAULT_MAP_CENTER, DEFAULT_MAP_HEIGHT, type MapRoute } from '../../src/lib/map/mapTypes';
import { api, server } from './support/fakeApi';
import { renderWithServices, useFakeApi } from './support/harness';

// MapLibre needs WebGL, which jsdom has not: its module is replaced by a stand-in that keeps what the view asked of it
// and puts markers' elements in the map's container, where the tests can find them.
const maplibre = vi.hoisted(() => {
  type Listener = (event?: unknown) => void;
  class FakeMap {
    static instances: FakeMap[] = [];
    static failWith: Error | null = null;
    listeners = new Map<string, Listener[]>();
    sources = new Map<string, { data: any; setData: (data: any) => void }>();
    layers: any[] = [];
    camera: Array<{ kind: 'jumpTo' | 'fitBounds'; value: unknown }> = [];
    removed = false;
    zoom = 10;
    constructor(public options: { container: HTMLElement; style: string }) {
      if (FakeMap.failWith) throw FakeMap.failWith;
      FakeMap.instances.push(this);
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    fire(event: string, payload?: unknown) {
      for (const listener of this.listeners.get(event) ?? []) listener(payload);
    }
    off(event: string, listener: Listener) {
      this.listeners.set(event, (this.listeners.get(event) ?? []).filter((candidate) => candidate !== listener));
      return this;
    }
    getZoom() { return this.zoom; }
    /** Web-map pixels of 256-px tiles at this zoom, without the Mercator stretch (enough for gathering pins). */
    project([lng, lat]: [number, number]) {
      const pixelsPerDegree = (256 * 2 ** this.zoom) / 360;
      return { x: lng * pixelsPerDegree, y: -lat * pixelsPerDegree };
    }
    addControl() { return this; }
    remove() { this.removed = true; }
    getContainer() { return this.options.container; }
    jumpTo(value: unknown) { this.camera.push({ kind: 'jumpTo', value }); }
    fitBounds(value: unknown) { this.camera.push({ kind: 'fitBounds', value }); }
    getSource(id: string) { return this.sources.get(id); }
    addSource(id: string, source: { data: any }) {
      const entry = { data: source.data, setData: (data: any) => { entry.data = data; } };
      this.sources.set(id, entry);
    }
    addLayer(layer: any) { this.layers.push(layer); }
  }
  class FakeMarker {
    static instances: FakeMarker[] = [];
    lngLat: [number, number] = [0, 0];
    listeners = new Map<string, () => void>();
    constructor(public options: { element: HTMLElement; anchor: string; offset: [number, number]; draggable: boolean }) {
      FakeMarker.instances.push(this);
    }
    setLngLat(lngLat: [number, number]) { this.lngLat = lngLat; return this; }
    getLngLat() { return { lng: this.lngLat[0], lat: this.lngLat[1] }; }
    addTo(map: FakeMap) { map.options.container.append(this.options.element); return this; }
    remove() { this.options.element.remove(); }
    on(event: string, listener: () => void) { this.listeners.set(event, listener); return this; }
  }
  class GPUInitializationError extends Error {}
  class Control {}
  return { FakeMap, FakeMarker, GPUInitializationError, Control };
});

vi.mock('maplibre-gl', () => ({
  Map: maplibre.FakeMap,
  Marker: maplibre.FakeMarker,
  GPUInitializationError: maplibre.GPUInitializationError,
  AttributionControl: maplibre.Control,
  NavigationControl: maplibre.Control,
  setWorkerUrl: () => undefined,
}));
vi.mock('maplibre-gl/dist/maplibre-gl-worker.mjs?url', () => ({ default: '/assets/maplibre-gl-worker.mjs' }));

useFakeApi();
beforeEach(() => {
  maplibre.FakeMap.instances = [];
  maplibre.FakeMap.failWith = null;
  maplibre.FakeMarker.instances = [];
});

const BRISBANE = [
  { id: 1, lat: -27.47, lng: 153.02, title: 'CBD' },
  { id: 2, lat: -27.38, lng: 153.12, title: 'Airport' },
  { id: 3, lat: -27.55, lng: 152.95, title: 'Oxley' },
];
const HOME = { lat: -27.5, lng: 153.0, name: 'Home' };
/** 30 clients a few dozen metres apart in one street of the CBD, and two far from them. */
const CROWD = [
  ...Array.from({ length: 30 }, (_, index) => ({ id: 100 + index, lat: -27.4701 + (index % 6) * 0.0003, lng: 153.0201 + Math.floor(index / 6) * 0.0003, title: `Client ${index + 1}` })),
  BRISBANE[1], BRISBANE[2],
];
const PAT: MapRoute = {
  id: 7, name: 'Pat Nguyen', color: '#0284c7', start: HOME, end: HOME,
  stops: [
    { id: 101, lat: -27.46, lng: 152.99, title: 'Margaret Jones' },
    { id: 102, lat: -27.47, lng: 153.03, title: 'Bert Smith' },
    { id: 103, lat: -27.46, lng: 152.99, title: 'Margaret Jones' },
  ],
};
const SAM: MapRoute = {
  id: 8, name: 'Sam Lee', color: '#16a34a',
  // Sam's first visit is at the house Pat visits first: both pins must stay in sight.
  stops: [{ id: 201, lat: -27.46, lng: 152.99, title: 'Cora Diaz' }, { id: 202, lat: -27.4, lng: 153.05, title: 'Ed Wu' }],
};

function config(patch: Record<string, unknown>) {
  server.use(http.get(api('/config'), () => HttpResponse.json({
    product_name: 'Rounds', google_maps_api_key: null, help_url: 'x', map_style_url: null, map_attribution: null, road_geometry: false, ...patch,
  })));
}
const STYLE = 'https://tiles.example.test/style.json';

describe('map projection', () => {
  it('keeps north up and east right, inside the padded box, and finds the point under a click', () => {
    const { project, unproject } = fitProjection(BRISBANE, 640, 200, 24);
    const [cbd, airport, oxley] = BRISBANE.map(project);
    expect(airport.y).toBeLessThan(cbd.y); // further north is higher
    expect(airport.x).toBeGreaterThan(cbd.x); // further east is to the right
    for (const point of [cbd, airport, oxley]) {
      expect(point.x).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(point.x).toBeLessThanOrEqual(640 - 24 + 1e-9);
      expect(point.y).toBeGreaterThanOrEqual(24 - 1e-9);
      expect(point.y).toBeLessThanOrEqual(200 - 24 + 1e-9);
    }
    const back = unproject(airport);
    expect(back.lat).toBeCloseTo(-27.38, 9);
    expect(back.lng).toBeCloseTo(153.12, 9);
  });

  it('centres a single point, and the default centre when there is nothing', () => {
    expect(fitProjection([{ lat: -27.5, lng: 153 }], 640, 200).project({ lat: -27.5, lng: 153 })).toEqual({ x: 320, y: 100 });
    expect(fitProjection([], 640, 200).project(DEFAULT_MAP_CENTER)).toEqual({ x: 320, y: 100 });
    // A business's own default centre (Account settings), e.g. Perth.
    const perth = { lat: -31.95, lng: 115.86 };
    expect(fitProjection([], 640, 200, 24, perth).project(perth)).toEqual({ x: 320, y: 100 });
  });

  it('draws round-number grid lines', () => {
    expect(gridLines(152.93, 153.14)).toEqual([152.95, 153, 153.05, 153.1]);
    expect(gridLines(1, 1)).toEqual([]);
  });
});

describe('what a map draws', () => {
  const model = (routes: MapRoute[], hidden: number[] = [], fit: 'visible' | 'all' | 'first' = 'visible') =>
    buildMapModel({ routes, pins: [], hidden: new Set(hidden), legs: true, fit, movablePins: false });

  it("numbers each practitioner's stops in visiting order, one pin for a place visited twice, and marks start and end", () => {
    const { pins, lines } = model([PAT]);
    expect(pins.map((pin) => [pin.kind, pin.label, pin.title])).toEqual([
      ['startEnd', 'S/E', 'Pat Nguyen: starts and ends at Home'],
      ['stop', '1,3', 'Pat Nguyen: stop 1 Margaret Jones, stop 3 Margaret Jones'],
      ['stop', '2', 'Pat Nguyen: Bert Smith'],
    ]);
    // The legs run from the start through every stop to the end.
    expect(lines).toHaveLength(1);
    expect(lines[0].points).toHaveLength(5);
    expect(lines[0].points[0]).toEqual({ lat: HOME.lat, lng: HOME.lng });
  });

  it('draws a different start and end as two markers, and a stop label given instead of the number', () => {
    const { pins } = model([{ ...PAT, end: { lat: -27.3, lng: 153.1, name: 'Depot' }, stops: [{ ...PAT.stops[1], label: '!' }] }]);
    expect(pins.map((pin) => [pin.kind, pin.label])).toEqual([['start', 'S'], ['end', 'E'], ['stop', '!']]);
  });

  it('sets pins of different practitioners at one place side by side', () => {
    const { pins } = model([PAT, SAM]);
    const atMargarets = pins.filter((pin) => pin.lat === -27.46 && pin.lng === 152.99);
    expect(atMargarets.map((pin) => pin.title)).toEqual(['Pat Nguyen: stop 1 Margaret Jones, stop 3 Margaret Jones', 'Sam Lee: Cora Diaz']);
    expect(atMargarets.map((pin) => pin.offset)).toEqual([[-11, 0], [11, 0]]);
    expect(pins.filter((pin) => pin.offset[0] !== 0)).toHaveLength(2);
  });

  it('sets more than four pins at one place in rows of four, the next row below the point', () => {
    const depot = { lat: -27.44, lng: 153.03 };
    const { pins } = buildMapModel({
      routes: [], pins: Array.from({ length: 6 }, (_, index) => ({ id: index, ...depot })), hidden: new Set(), legs: true, fit: 'visible', movablePins: false,
    });
    expect(pins.map((pin) => pin.offset)).toEqual([[-33, 0], [-11, 0], [11, 0], [33, 0], [-33, 26], [-11, 26]]);
  });

  it('leaves out a hidden practitioner, and fits what is shown unless asked to fit everything', () => {
    const shown = model([PAT, SAM], [7]);
    expect(shown.pins.map((pin) => pin.title)).toEqual(['Sam Lee: Cora Diaz', 'Sam Lee: Ed Wu']);
    expect(shown.pins.every((pin) => pin.offset[0] === 0)).toBe(true);
    expect(shown.fitPoints).not.toContainEqual({ lat: HOME.lat, lng: HOME.lng });
    expect(model([PAT, SAM], [7], 'all').fitPoints).toContainEqual({ lat: HOME.lat, lng: HOME.lng });
  });
});

describe('the offline drawing', () => {
  it('draws every pin and line', () => {
    const { pins, lines, fitPoints } = buildMapModel({ routes: [PAT], pins: [], hidden: new Set(), legs: true, fit: 'visible', movablePins: false });
    render(<SvgMap pins={pins} lines={lines} fitPoints={fitPoints} height={200} />);
    expect(screen.getByRole('img', { name: 'Map showing 3 locations' })).toBeInTheDocument();
    expect(screen.getAllByTestId('map-marker').map((marker) => marker.getAttribute('data-kind'))).toEqual(['startEnd', 'stop', 'stop']);
    expect(screen.getByTestId('map-route').getAttribute('points')!.split(' ')).toHaveLength(5);
  });

  it('is what MapView shows when no street map is configured, and says so', async () => {
    const view = renderWithServices(<MapView pins={BRISBANE.slice(0, 1)} />);
    const map = await screen.findByTestId('svg-map');
    expect(map).toHaveAccessibleName('Map showing CBD');
    expect(map).toHaveStyle({ height: `${DEFAULT_MAP_HEIGHT}px` });
    expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'offline');
    expect(screen.getByText('Offline drawing · no streets')).toBeInTheDocument();
    // An admin is told how to configure a street map.
    expect(screen.getByTestId('map-note')).toHaveTextContent(/without streets\. To show streets, set MAP_STYLE_URL .* or GOOGLE_MAPS_API_KEY on the server\./);
    view.unmount();
  });

  it('tells anyone else that an administrator can set one up', async () => {
    const view = renderWithServices(<MapView pins={BRISBANE.slice(0, 1)} />, { role: 'PRACTITIONER' });
    expect(await screen.findByTestId('map-note')).toHaveTextContent('No street map is configured: this is an offline drawing of the places, without streets. An administrator can set up a street map.');
    view.unmount();
  });

  it('places a movable pin where the drawing is clicked', async () => {
    const onPinMove = vi.fn();
    const view = renderWithServices(<MapView fit="first" pins={[BRISBANE[0]]} onPinMove={onPinMove} />);
    const map = await screen.findByTestId('svg-map');
    expect(screen.getByTestId('map-note')).toHaveTextContent('Click the drawing to place the pin.');
    map.getBoundingClientRect = () => ({ left: 0, top: 0, width: 640, height: 200, right: 640, bottom: 200, x: 0, y: 0, toJSON: () => ({}) });
    // Right of and above the pin (it is drawn at the centre).
    fireEvent.click(map, { clientX: 420, clientY: 60 });
    expect(onPinMove).toHaveBeenCalledTimes(1);
    const [pin, to] = onPinMove.mock.calls[0];
    expect(pin).toEqual(BRISBANE[0]);
    expect(to.lng).toBeGreaterThan(153.02);
    expect(to.lat).toBeGreaterThan(-27.47);
    view.unmount();
  });
});

describe('the density view', () => {
  it('draws crowded clients as one counted circle on the offline drawing, and the far ones as pins', async () => {
    const view = renderWithServices(<MapView pins={CROWD} density />);
    await screen.findByTestId('svg-map');
    const cells = screen.getAllByTestId('map-density-cell');
    expect(cells.map((cell) => cell.getAttribute('data-count'))).toEqual(['30']);
    expect(cells[0]).toHaveTextContent('30');
    expect(cells[0].querySelector('title')).toHaveTextContent('30 here: Client 1, Client 2, Client 3, Client 4, Client 5 and 25 more');
    expect(screen.getAllByTestId('map-marker').map((marker) => marker.querySelector('title')?.textContent)).toEqual(['Airport', 'Oxley']);
    view.unmount();
    // Without it, every client is a pin.
    const plain = renderWithServices(<MapView pins={CROWD} />);
    await screen.findByTestId('svg-map');
    expect(screen.getAllByTestId('map-marker')).toHaveLength(32);
    expect(screen.queryByTestId('map-density-cell')).toBeNull();
    plain.unmount();
  });

  it('on a street map, parts the circle as the map zooms in, and a click on it zooms to its clients', async () => {
    config({ map_style_url: STYLE });
    const view = renderWithServices(<MapView pins={CROWD} density onPinClick={() => undefined} />);
    const container = await screen.findByTestId('maplibre-map');
    const [map] = maplibre.FakeMap.instances;
    const cell = await within(container).findByTestId('map-density-cell');
    expect(cell).toHaveAccessibleName(/^30 here: Client 1/);
    expect(within(container).getAllByTestId('map-marker')).toHaveLength(2);

    map.camera = [];
    await userEvent.click(cell);
    expect(map.camera).toHaveLength(1);
    expect((map.camera[0].value as number[][]).flat().map((degrees) => degrees.toFixed(4))).toEqual(['153.0201', '-27.4701', '153.0213', '-27.4686']);

    map.zoom = 18;
    act(() => map.fire('zoomend'));
    await waitFor(() => expect(within(container).getAllByTestId('map-marker')).toHaveLength(32));
    expect(within(container).queryByTestId('map-density-cell')).toBeNull();
    view.unmount();
  });
});

describe('the street map (MapLibre over MAP_STYLE_URL)', () => {
  it('draws over the configured style: numbered pins for stops, squares for places, the legs as a line layer', async () => {
    config({ map_style_url: STYLE, map_attribution: '© OpenStreetMap contributors' });
    const onStopClick = vi.fn();
    const view = renderWithServices(<MapView routes={[PAT, SAM]} onStopClick={onStopClick} height={320} />);
    const container = await screen.findByTestId('maplibre-map');
    expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'maplibre');
    expect(screen.queryByTestId('map-note')).toBeNull();
    const [map] = maplibre.FakeMap.instances;
    expect(map.options.style).toBe(STYLE);

    const markers = await within(container).findAllByTestId('map-marker');
    expect(markers.map((marker) => [marker.dataset.kind, marker.dataset.label])).toEqual([
      ['startEnd', 'S/E'], ['stop', '1,3'], ['stop', '2'], ['stop', '1'], ['stop', '2'],
    ]);
    // Sam's and Pat's pins at Margaret's are moved apart; places are centred on their point, stops stand on it.
    const options = maplibre.FakeMarker.instances.map((marker) => marker.options);
    expect(options.map((option) => option.offset)).toEqual([[0, 0], [-11, 0], [0, 0], [11, 0], [0, 0]]);
    expect(options.map((option) => option.anchor)).toEqual(['center', 'bottom', 'bottom', 'bottom', 'bottom']);

    // The camera fits the day's places; the legs wait for the style.
    expect(map.camera).toEqual([{ kind: 'fitBounds', value: [[152.99, -27.5], [153.05, -27.4]] }]);
    expect(map.layers).toEqual([]);
    act(() => map.fire('style.load'));
    expect(map.layers).toMatchObject([{ id: 'rounds-legs', type: 'line' }]);
    expect(map.getSource('rounds-legs')!.data.features.map((feature: any) => feature.properties.color)).toEqual(['#0284c7', '#16a34a']);

    await userEvent.click(within(container).getByRole('button', { name: 'Sam Lee: Ed Wu' }));
    expect(onStopClick).toHaveBeenCalledWith(SAM.stops[1], SAM);
    view.unmount();
  });

  it("hides a practitioner's pins and legs with the legend, and fits the others", async () => {
    config({ map_style_url: STYLE });
    const user = userEvent.setup();
    const view = renderWithServices(<MapView routes={[PAT, SAM]} />);
    const container = await screen.findByTestId('maplibre-map');
    const [map] = maplibre.FakeMap.instances;
    act(() => map.fire('style.load'));
    const legend = screen.getByTestId('map-legend');
    expect(within(legend).getAllByRole('checkbox').map((box) => (box as HTMLInputElement).checked)).toEqual([true, true]);

    await user.click(within(legend).getByRole('checkbox', { name: /Pat Nguyen/ }));
    await waitFor(() => expect(within(container).getAllByTestId('map-marker')).toHaveLength(2));
    expect(within(container).getAllByTestId('map-marker').map((marker) => marker.getAttribute('aria-label'))).toEqual(['Sam Lee: Cora Diaz', 'Sam Lee: Ed Wu']);
    expect(map.getSource('rounds-legs')!.data.features).toHaveLength(1);
    expect(map.camera.at(-1)).toEqual({ kind: 'fitBounds', value: [[152.99, -27.46], [153.05, -27.4]] });

    await user.click(within(legend).getByRole('checkbox', { name: /Pat Nguyen/ }));
    await waitFor(() => expect(within(container).getAllByTestId('map-marker')).toHaveLength(5));
    view.unmount();
  });

  it('makes a movable pin draggable and reports where it was dropped', async () => {
    config({ map_style_url: STYLE });
    const onPinMove = vi.fn();
    const view = renderWithServices(<MapView fit="first" pins={[BRISBANE[0]]} onPinMove={onPinMove} />);
    await within(await screen.findByTestId('maplibre-map')).findByTestId('map-marker');
    const [marker] = maplibre.FakeMarker.instances;
    expect(marker.options.draggable).toBe(true);
    marker.setLngLat([153.0312345678, -27.4712345678]);
    act(() => marker.listeners.get('dragend')!());
    expect(onPinMove).toHaveBeenCalledWith(BRISBANE[0], { lat: -27.471235, lng: 153.031235 });
    view.unmount();
  });

  it('falls back to the offline drawing, saying why, when the browser has no WebGL', async () => {
    config({ map_style_url: STYLE });
    maplibre.FakeMap.failWith = new maplibre.GPUInitializationError('Failed to initialize WebGL');
    const view = renderWithServices(<MapView pins={BRISBANE} />);
    expect(await screen.findByTestId('svg-map')).toHaveAttribute('data-marker-count', '3');
    expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'offline');
    expect(screen.getByTestId('map-note')).toHaveTextContent('This browser cannot draw the street map (WebGL 2 is off or unavailable), so this is an offline drawing');
    view.unmount();
  });

  it('falls back when the style cannot be loaded, but not for a missing tile once it has', async () => {
    config({ map_style_url: STYLE });
    const view = renderWithServices(<MapView pins={BRISBANE} />);
    await screen.findByTestId('maplibre-map');
    const [map] = maplibre.FakeMap.instances;
    act(() => map.fire('error', { error: new Error('Failed to fetch') }));
    expect(await screen.findByTestId('map-note')).toHaveTextContent('The street map’s style could not be loaded');
    expect(map.removed).toBe(true);
    view.unmount();

    maplibre.FakeMap.instances = [];
    const again = renderWithServices(<MapView pins={BRISBANE} />);
    await screen.findByTestId('maplibre-map');
    const [second] = maplibre.FakeMap.instances;
    act(() => second.fire('style.load'));
    act(() => second.fire('error', { error: new Error('tile 404') }));
    expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'maplibre');
    again.unmount();
  });
});

describe('renderer choice', () => {
  it('prefers Google Maps when a key is configured, even with a style URL', async () => {
    config({ google_maps_api_key: 'test-key', map_style_url: STYLE });
    const view = renderWithServices(<MapView pins={BRISBANE} />);
    await waitFor(() => expect(screen.getByTestId('map')).toHaveAttribute('data-renderer', 'google'));
    expect(maplibre.FakeMap.instances).toHaveLength(0);
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
