import { describe, expect, it } from 'vitest';
import { buildMapModel, type MapModelInput } from './mapModel';
import type { MapRoute } from './mapTypes';

const home = { lat: -27.47, lng: 153.04 };
const route = (id: number, name: string, color: string, stops: MapRoute['stops']): MapRoute => ({ id, name, color, start: null, end: null, stops });
const input = (routes: MapRoute[], hidden: number[] = []): MapModelInput => ({ routes, pins: [], hidden: new Set(hidden), legs: false, fit: 'all', movablePins: false });

describe('a two-carer visit on the map', () => {
  const amelia = route(1, 'Amelia Brown', '#e6194b', [
    { id: 10, lat: -27.5, lng: 153.0, title: 'Bert Smith' },
    { id: 11, ...home, title: 'Dorothy Ryan', together: 'two-carer:11' },
  ]);
  const harper = route(2, 'Harper Walker', '#4363d8', [{ id: 12, ...home, title: 'Dorothy Ryan', together: 'two-carer:11' }]);

  it('is one pin naming both practitioners and their stops, not two pins side by side', () => {
    const stops = buildMapModel(input([amelia, harper])).pins.filter((pin) => pin.kind === 'stop');
    expect(stops.map((pin) => [pin.label, pin.title, pin.offset])).toEqual([
      ['1', 'Amelia Brown: Bert Smith', [0, 0]],
      ['2+1', 'Two-carer visit, Amelia Brown (stop 2) and Harper Walker (stop 1): Dorothy Ryan', [0, 0]],
    ]);
    expect(stops[1].target).toEqual({ kind: 'stop', routeId: 1, stopId: 11 });
  });

  it('is the shown practitioner’s own pin when the other is hidden, and two visits at one house without the key stay two pins', () => {
    const shown = buildMapModel(input([amelia, harper], [1])).pins.filter((pin) => pin.kind === 'stop');
    expect(shown.map((pin) => [pin.label, pin.title])).toEqual([['1', 'Harper Walker: Dorothy Ryan']]);
    const apart = route(2, 'Harper Walker', '#4363d8', [{ id: 12, ...home, title: 'Dorothy Ryan' }]);
    const both = buildMapModel(input([amelia, apart])).pins.filter((pin) => pin.kind === 'stop' && pin.lat === home.lat);
    expect(both.map((pin) => pin.title)).toEqual(['Amelia Brown: Dorothy Ryan', 'Harper Walker: Dorothy Ryan']);
    expect(both[0].offset).not.toEqual(both[1].offset);
  });
});
