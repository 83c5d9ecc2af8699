// What a reminder says: the next day's visits with their arrival windows and practitioners' first names, the link to
// update availability, the business's name and contact, and the unsubscribe link; as plain text, HTML and an SMS.
import { Temporal } from 'temporal-polyfill';
import { longDate } from '../../lib/long-date';

/** Half the arrival window around the routed arrival: the client is told ±30 minutes. */
export const ARRIVAL_WINDOW_MINUTES = 30;
/** The routed arrival is rounded to this before the window is put around it. */
const ROUND_TO_MINUTES = 15;

export interface ReminderVisit {
  startsAt: Date;
  /** The routed arrival; null: the booked time is told. */
  arriveAt: Date | null;
  practitionerFirstName: string;
}

export interface ReminderContent {
  business: { name: string; contactEmail: string; contactPhone: string };
  clientFirstName: string;
  visitDate: string;
  /** The zone the times are told in (the client's, else the business's). */
  timeZone: string;
  visits: ReminderVisit[];
  availabilityLink: string | null;
  unsubscribeLink: string;
}

export interface ReminderMessage { subject: string; text: string; html: string }

const formatters = new Map<string, Intl.DateTimeFormat>();
/** "9:45 am" in `timeZone`, as every message to a client tells a time. */
export function timeOf(instant: Date, timeZone: string): string {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-AU', { hour: 'numeric', minute: '2-digit', hour12: true, timeZone });
    formatters.set(timeZone, format);
  }
  return format.format(instant).replace(/\u202f/g, ' ');
}

const dates = new Map<string, string>();
/** "Thursday 26 November 2026" (a batch asks for the same day thousands of times). */
export function dateOf(date: string): string {
  let text = dates.get(date);
  if (!text) {
    text = longDate(date);
    if (dates.size > 1000) dates.clear();
    dates.set(date, text);
  }
  return text;
}

/** "between 8:45 am and 9:45 am" around the routed arrival (rounded to 15 minutes), else "at 9:00 am" (booked). */
export function arrivalWindow(visit: Pick<ReminderVisit, 'startsAt' | 'arriveAt'>, timeZone: string): string {
  if (!visit.arriveAt) return `at ${timeOf(visit.startsAt, timeZone)}`;
  const step = ROUND_TO_MINUTES * 60_000;
  const centre = Math.round(visit.arriveAt.getTime() / step) * step;
  const half = ARRIVAL_WINDOW_MINUTES * 60_000;
  return `between ${timeOf(new Date(centre - half), timeZone)} and ${timeOf(new Date(centre + half), timeZone)}`;
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

export function contactLine(business: ReminderContent['business']): string {
  return [business.name, business.contactPhone, business.contactEmail].map((part) => part.trim()).filter(Boolean).join(' · ');
}

export function reminderEmail(content: ReminderContent): ReminderMessage {
  const { business, visits } = content;
  const day = dateOf(content.visitDate);
  const lines = visits.map((visit) => `${arrivalWindow(visit, content.timeZone)}, with ${visit.practitionerFirstName}`);
  const intro = visits.length === 1
    ? `This is a reminder of your visit from ${business.name} on ${day}:`
    : `This is a reminder of your ${visits.length} visits from ${business.name} on ${day}:`;
  const changeText = 'If the days or times you are available have changed, please let us know here:';
  const text = [
    `Hello ${content.clientFirstName},`,
    '',
    intro,
    '',
    ...lines.map((line) => `- ${line}`),
    '',
    ...(content.availabilityLink ? [changeText, content.availabilityLink, ''] : []),
    contactLine(business),
    '',
    `To stop these reminders: ${content.unsubscribeLink}`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>Hello ${escapeHtml(content.clientFirstName)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${lines.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`,
    ...(content.availabilityLink
      ? [`<p>${escapeHtml(changeText)}<br><a href="${escapeHtml(content.availabilityLink)}">Update my availability</a></p>`]
      : []),
    `<p>${escapeHtml(contactLine(business))}</p>`,
    `<p style="font-size: smaller"><a href="${escapeHtml(content.unsubscribeLink)}">Stop these reminders</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: `Reminder: your ${visits.length === 1 ? 'visit' : 'visits'} on ${day}`, text, html };
}

/** The SMS: one short text without links but the unsubscribe one. */
export function reminderSms(content: ReminderContent): string {
  const day = Temporal.PlainDate.from(content.visitDate).toLocaleString('en-AU', { weekday: 'short', day: 'numeric', month: 'short' });
  const visits = content.visits.map((visit) => `${arrivalWindow(visit, content.timeZone)} with ${visit.practitionerFirstName}`).join('; ');
  const contact = content.business.contactPhone.trim() ? ` Questions: ${content.business.contactPhone.trim()}.` : '';
  return `${content.business.name}: reminder of your visit ${day} ${visits}.${contact} Stop reminders: ${content.unsubscribeLink}`;
}
