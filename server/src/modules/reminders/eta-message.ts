// What an ETA message says (issue 26, "The client"): the practitioner's first name, the business, and about when they
// will arrive, as an SMS and as an email; from and signed by the business, with the same unsubscribe link as reminders.
import { contactLine, escapeHtml, timeOf, type ReminderMessage } from './message';

export interface EtaContent {
  business: { name: string; contactEmail: string; contactPhone: string };
  clientFirstName: string;
  practitionerFirstName: string;
  /** The arrival told; null: the message says the practitioner is on the way without a time. */
  eta: Date | null;
  timeZone: string;
  unsubscribeLink: string;
}

/** "Your practitioner Pat from Acme Care is on the way and should arrive at about 10:25 am." */
export function etaSentence(content: Pick<EtaContent, 'business' | 'practitionerFirstName' | 'eta' | 'timeZone'>): string {
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
  return { subject: `${content.practitionerFirstName} from ${content.business.name} is on the way`, text, html };
}
