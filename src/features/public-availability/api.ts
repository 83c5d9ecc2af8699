import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import { unwrap } from '../../api/errors';

export type PublicAvailability = components['schemas']['PublicAvailability'];
type AvailabilityEntry = components['schemas']['AvailabilityEntry'];

export async function fetchPublicAvailability(api: ApiClient, token: string): Promise<PublicAvailability> {
  const result = await api.GET('/public/availability', { params: { query: { token } } });
  return unwrap(result, 'An error has occurred');
}

export async function savePublicAvailability(api: ApiClient, token: string, availability: AvailabilityEntry[]) {
  const result = await api.PUT('/public/availability', { body: { token, availability } });
  return unwrap(result, 'An error has occurred');
}
