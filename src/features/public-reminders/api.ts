import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';

/** The reminder email's unsubscribe link: the client gets no more reminders. */
export async function unsubscribeFromReminders(api: ApiClient, token: string): Promise<{ message: string; business_name: string }> {
  const result = await api.POST('/public/reminders/unsubscribe', { body: { token } });
  return unwrap(result, 'An error has occurred');
}
