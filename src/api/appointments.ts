// The appointment write the arrival-time editor's machine makes by default. The schedule feature's
// useUpdateArrivalTime (its mutation, which also updates the cache and says so, with the soft problems the change
// added) calls it too.
import type { ApiClient } from './client';
import { unwrap } from './errors';
import type { components } from './schema';

type Appointment = components['schemas']['Appointment'];
type RuleWarning = components['schemas']['RuleWarning'];

/** An appointment changed by hand, and the soft rules of home care the change now breaks (it went ahead). */
export interface ChangedAppointment { appointment: Appointment; warnings: RuleWarning[] }

export async function updateArrivalTime(api: ApiClient, id: number, arriveAt: string): Promise<ChangedAppointment> {
  const result = await api.PUT('/appointments/{id}/update_arrival_time', { params: { path: { id } }, body: { arrive_at: arriveAt } });
  return unwrap(result, 'An error has occurred. Could not update appointment arrival time.');
}

/** The soft problems a change by hand added to its day, as one notice in words; null when it added none. */
export const changeWarningsMessage = (warnings: readonly RuleWarning[]): string | null =>
  (warnings.length === 0 ? null : `Saved, but please check: ${warnings.map((warning) => warning.message).join(' ')}`);
