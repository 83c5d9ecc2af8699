// Links that open an address in a maps app: Google Maps, Apple Maps and Waze.

export interface AddressLike {
  address_1?: string | null;
  address_2?: string | null;
  city?: string | null;
  state?: string | null;
  post_code?: string | null;
  country?: string | null;
}

export interface MapLinks {
  google: string;
  apple: string;
  waze: string;
}

/** "12 Smith St, Unit 4, Paddington QLD 4064, Australia" — the filled parts only. */
export function addressLine(address: AddressLike): string {
  const street = [address.address_1, address.address_2].map((part) => part?.trim()).filter(Boolean).join(', ');
  const locality = [address.city, address.state, address.post_code].map((part) => part?.trim()).filter(Boolean).join(' ');
  return [street, locality, address.country?.trim()].filter(Boolean).join(', ');
}

/** Links from the address; null when there is no address to search for. */
export function mapLinksForAddress(address: AddressLike): MapLinks | null {
  const query = addressLine(address);
  if (query === '') return null;
  const q = encodeURIComponent(query);
  return {
    google: `https://www.google.com/maps/search/?api=1&query=${q}`,
    apple: `https://maps.apple.com/?q=${q}`,
    waze: `https://waze.com/ul?q=${q}&navigate=yes`,
  };
}
