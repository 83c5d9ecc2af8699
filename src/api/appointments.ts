// The appointment write the arrival-time editor's machine makes by default. The appointments feature's
// useUpdateArrivalTime (its mutation, which also updates the cache and says so) calls it too.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

type Appointment = components['schemas']['Appointment'];

export async function updateArrivalTime(api: ApiClient, id: number, arriveAt: string): Promise<Appointment> {
  const result = await api.PUT('/appointments/{id}/update_arrival_time', { params: { path: { id } }, body: { arrive_at: arriveAt } });
  return unwrap(result, 'An error has occurred. Could not update appointment arrival time.').appointment;
}
