import { describe, expect, it } from 'vitest';
import { coordinatesInWords, placementInWords, precisionInWords } from './geoPrecision';

describe('a point’s placement in words', () => {
  it('says how precise a point is and where it came from', () => {
    expect(precisionInWords('suburb')).toBe('Placed at the suburb’s centre');
    expect(placementInWords('address', 'google')).toBe('Placed at the address (from Google)');
    expect(placementInWords('street', 'sandbox')).toBe('Placed on the street, not at the house (from the demo’s made-up streets, not for navigation)');
    expect(placementInWords('suburb', 'gazetteer')).toBe('Placed at the suburb’s centre (from the Australian suburb and postcode table)');
    expect(placementInWords('none', null)).toBe('Not on the map');
    expect(placementInWords('address', null)).toBe('Placed at the address');
  });

  it('writes coordinates to about ten metres', () => {
    expect(coordinatesInWords(-27.469812, 153.02513)).toBe('-27.4698, 153.0251');
  });
});
