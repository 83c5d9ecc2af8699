// Utilisation, the one rule (the dashboard's week and the practitioner performance report): the visits' booked time ÷
// the working hours of the practitioner's settings over the days (each day's shift, breaks included), to 3 decimals;
// null without working hours.
import type { PractitionerDay } from './service';

/** The working seconds of a practitioner's days, from their settings' hours. */
export const workingSecondsOf = (days: readonly PractitionerDay[]): number =>
  days.reduce((sum, day) => sum + (day.shift ? day.shift.end - day.shift.start : 0), 0);

export const utilisationOf = (visitSeconds: number, workingSeconds: number): number | null =>
  (workingSeconds > 0 ? Math.round((visitSeconds / workingSeconds) * 1000) / 1000 : null);
