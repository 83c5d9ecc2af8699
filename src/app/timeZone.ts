// The time zone the app's times are shown in, for the words that name it (dashboard, sidebar footer).
import { useAuthSelector } from './ServicesContext';
import { selectUser } from '../machines/auth';
import { browserTimeZone } from '../lib/dates';

/**
 * The business account's zone: the one the appointments screens fall back to (appointmentTimeZone) and the one
 * request dates are read in. The browser's zone only while no user is loaded.
 */
export function useShownTimeZone(): string {
  return useAuthSelector(selectUser)?.business_account.time_zone || browserTimeZone();
}
