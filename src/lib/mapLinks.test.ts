import { describe, expect, it } from 'vitest';
import { addressLine, mapLinksForAddress } from './mapLinks';

describe('map links', () => {
  const address = { address_1: '12 Given Tce', address_2: null, city: 'Paddington', state: 'QLD', post_code: '4064', country: 'Australia' };

  it('joins the filled parts of an address', () => {
    expect(addressLine(address)).toBe('12 Given Tce, Paddington QLD 4064, Australia');
    expect(addressLine({ city: 'Toowong' })).toBe('Toowong');
  });

  it('builds Google Maps, Apple Maps and Waze links from the address', () => {
    const links = mapLinksForAddress(address)!;
    const q = encodeURIComponent('12 Given Tce, Paddington QLD 4064, Australia');
    expect(links.google).toBe(`https://www.google.com/maps/search/?api=1&query=${q}`);
    expect(links.apple).toBe(`https://maps.apple.com/?q=${q}`);
    expect(links.waze).toBe(`https://waze.com/ul?q=${q}&navigate=yes`);
  });

  it('gives no links without an address', () => {
    expect(mapLinksForAddress({ address_1: ' ', city: null })).toBeNull();
  });
});
