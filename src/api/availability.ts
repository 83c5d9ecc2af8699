// Saving a client's availability, the availability editor machine's default effect: by staff (the client's id)
// or by the client through their emailed link (its token). The views' mutations call these too.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

type Schemas = components['schemas'];
type AvailabilityEntry = Schemas['AvailabilityEntry'];

export async function saveClientAvailability(api: ApiClient, id: number, availability: AvailabilityEntry[]): Promise<Schemas['Client']> {
  const result = await api.PUT('/clients/{id}/update_availability', { params: { path: { id } }, body: { availability } });
  return unwrap(result, 'An error has occurred').client;
}

export async function savePublicAvailability(api: ApiClient, token: string, availability: AvailabilityEntry[]) {
  const result = await api.PUT('/public/availability', { body: { token, availability } });
  return unwrap(result, 'An error has occurred');
}
