import { describe, expect, it } from 'vitest';
import { coordinatesInWords, isApproximate, isPlaced, precisionMark, precisionText } from './geoPrecision';

describe('precision in words', () => {
  it('says how precise a point is and where it came from', () => {
    expect(precisionText('address', 'google')).toBe('Placed at the address (from Google).');
    expect(precisionText('suburb', 'gazetteer')).toBe('Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table).');
    expect(precisionText('street', 'manual')).toBe('Placed on the street, not at the exact building (placed by hand).');
    expect(precisionText('none', null)).toBe('No place was found for this address.');
  });

  it('marks a point short of the building in a few words, and a point at the building not at all', () => {
    expect(precisionMark('suburb')).toBe('Approximate: suburb only');
    expect(precisionMark('street')).toBe('Approximate: street only');
    expect(precisionMark('none')).toBe('Not on the map');
    expect(precisionMark('address')).toBeNull();
  });

  it('counts anything short of the building as approximate', () => {
    expect(isApproximate('address')).toBe(false);
    expect(['street', 'suburb', 'none'].every((precision) => isApproximate(precision as never))).toBe(true);
  });

  it('writes coordinates to about ten metres, and tells a place on the map from one without a position', () => {
    expect(coordinatesInWords(-27.469812, 153.02513)).toBe('-27.4698, 153.0251');
    expect(isPlaced({ lat: -27.4, lng: 153 })).toBe(true);
    expect([isPlaced({ lat: null, lng: 153 }), isPlaced({})]).toEqual([false, false]);
  });
});
