// What an ETA message says: the practitioner's first name, the business, and about when they
// will arrive — on the way (On my way) or at a new time (a re-plan) — as an SMS and as an email; from and signed by the
// business, with the same unsubscribe link as reminders.
import type { EtaMessageKind } from '../../db/schema-reminders';
import { contactLine, dateOf, escapeHtml, timeOf, type ReminderMessage } from './message';

export interface EtaContent {
  kind: EtaMessageKind;
  /** A re-plan's message names the day when it is not today (yyyy-MM-dd in the business's zone); null: today. */
  otherDay?: string | null;
  /** A re-plan gave the visit another practitioner (said even when its time barely moved). */
  newPractitioner?: boolean;
  business: { name: string; contactEmail: string; contactPhone: string };
  clientFirstName: string;
  practitionerFirstName: string;
  /** The arrival told; null: the message says the practitioner is on the way without a time. */
  eta: Date | null;
  timeZone: string;
  unsubscribeLink: string;
}

/**
 * On my way: "Your practitioner Pat from Acme Care is on the way and should arrive at about 10:25 am."
 * A re-plan: "Your visit from Acme Care has a new time: Pat should arrive at about 2:30 pm (on Tuesday 1 December 2026)."; with
 * another practitioner: "Your visit from Acme Care has a new practitioner: Quinn should arrive at about 2:30 pm."
 */
export function etaSentence(content: Pick<EtaContent, 'kind' | 'otherDay' | 'newPractitioner' | 'business' | 'practitionerFirstName' | 'eta' | 'timeZone'>): string {
  if (content.kind === 'replan' && content.eta) {
    const day = content.otherDay ? ` on ${dateOf(content.otherDay)}` : '';
    const what = content.newPractitioner ? 'a new practitioner' : 'a new time';
    return `Your visit from ${content.business.name} has ${what}: ${content.practitionerFirstName} should arrive at about ${timeOf(content.eta, content.timeZone)}${day}.`;
  }
  const who = `Your practitioner ${content.practitionerFirstName} from ${content.business.name} is on the way`;
  return content.eta ? `${who} and should arrive at about ${timeOf(content.eta, content.timeZone)}.` : `${who}.`;
}

export function etaSms(content: EtaContent): string {
  const contact = content.business.contactPhone.trim() ? ` Questions: ${content.business.contactPhone.trim()}.` : '';
  return `${etaSentence(content)}${contact} Stop messages: ${content.unsubscribeLink}`;
}

export function etaEmail(content: EtaContent): ReminderMessage {
  const sentence = etaSentence(content);
  const text = [
    `Hello ${content.clientFirstName},`,
    '',
    sentence,
    '',
    contactLine(content.business),
    '',
    `To stop these messages and reminders: ${content.unsubscribeLink}`,
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>Hello ${escapeHtml(content.clientFirstName)},</p>`,
    `<p>${escapeHtml(sentence)}</p>`,
    `<p>${escapeHtml(contactLine(content.business))}</p>`,
    `<p style="font-size: smaller"><a href="${escapeHtml(content.unsubscribeLink)}">Stop these messages and reminders</a></p>`,
    '</body></html>',
  ].join('\n');
  const subject = content.kind === 'replan'
    ? `A new ${content.newPractitioner ? 'practitioner' : 'time'} for your visit from ${content.business.name}`
    : `${content.practitionerFirstName} from ${content.business.name} is on the way`;
  return { subject, text, html };
}
