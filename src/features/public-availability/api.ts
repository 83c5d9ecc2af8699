import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import { unwrap } from '../../api/errors';

export type PublicAvailability = components['schemas']['PublicAvailability'];

export async function fetchPublicAvailability(api: ApiClient, token: string): Promise<PublicAvailability> {
  const result = await api.GET('/public/availability', { params: { query: { token } } });
  return unwrap(result, 'An error has occurred');
}
