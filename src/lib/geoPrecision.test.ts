import { describe, expect, it } from 'vitest';
import { isApproximate, precisionText } from './geoPrecision';

describe('precision in words', () => {
  it('says how precise a point is and where it came from', () => {
    expect(precisionText('address', 'google')).toBe('Placed at the address (from Google).');
    expect(precisionText('suburb', 'gazetteer')).toBe('Placed at the centre of the suburb or postcode (from the Australian suburb and postcode table).');
    expect(precisionText('street', 'manual')).toBe('Placed on the street, not at the exact building (placed by hand).');
    expect(precisionText('none', null)).toBe('No place was found for this address.');
  });

  it('counts anything short of the building as approximate', () => {
    expect(isApproximate('address')).toBe(false);
    expect(['street', 'suburb', 'none'].every((precision) => isApproximate(precision as never))).toBe(true);
  });
});
