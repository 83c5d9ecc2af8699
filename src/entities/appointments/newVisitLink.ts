// The address of the day schedule with the "New visit" dialog open, prefilled: any view (a client's details, the nearby
// search's results) links to it without importing the schedule feature. The appointments page reads the same keys.

export const NEW_VISIT_KEYS = {
  open: 'new_visit',
  client: 'client_id',
  type: 'visit_type',
  practitioner: 'visit_practitioner',
  time: 'visit_time',
} as const;

export interface NewVisitPrefill {
  /** yyyy-MM-dd; the day schedule's day. */
  date: string;
  clientId?: number | null;
  appointmentTypeId?: number | null;
  practitionerId?: number | null;
  /** HH:mm in the business's zone. */
  time?: string | null;
}

export function newVisitHref({ date, clientId, appointmentTypeId, practitionerId, time }: NewVisitPrefill): string {
  const params = new URLSearchParams({ view: 'schedule', start: date, end: date, [NEW_VISIT_KEYS.open]: 'true' });
  if (clientId) params.set(NEW_VISIT_KEYS.client, String(clientId));
  if (appointmentTypeId) params.set(NEW_VISIT_KEYS.type, String(appointmentTypeId));
  if (practitionerId) params.set(NEW_VISIT_KEYS.practitioner, String(practitionerId));
  if (time) params.set(NEW_VISIT_KEYS.time, time);
  return `/appointments?${params.toString()}`;
}
