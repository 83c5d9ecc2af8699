// Telling a client their visit was cancelled (bookings' Cancel with "Tell the client"): by the same channels and on
// the same terms as the ETA messages (./eta.ts) — SMS when SMS is configured and the client has a mobile number, else
// email; none when the business has messages off or the client turned them off. Written on the visit's change log.
import { Temporal } from 'temporal-polyfill';
import type { AppContext } from '../../http/context';
import { recordVersion } from '../audit';
import { sendSmsText } from './channels';
import { etaVisit } from './eta-repository';
import { contactLine, dateOf, escapeHtml, timeOf } from './message';
import { firstMobile, unsubscribeLinkOf } from './service';

/** Sends the client the cancellation of their visit; whether a message went. */
export async function tellClientOfCancellation(ctx: AppContext, businessAccountId: number, appointmentId: number): Promise<boolean> {
  const visit = await etaVisit(ctx.db, businessAccountId, appointmentId, null);
  if (!visit || visit.client_id === null) return false;
  const email = visit.email?.trim() ?? '';
  const mobile = ctx.config.sms && visit.phone_numbers ? firstMobile(visit.phone_numbers) : null;
  const why = !visit.eta_messages_enabled ? 'the business does not send messages'
    : !visit.client_messages_enabled ? 'the client turned reminders and messages off'
      : !mobile && email.indexOf('@') <= 0 ? 'the client has no mobile number or email address' : null;
  let words: string;
  let sent = false;
  if (why) {
    words = `Cancellation message not sent: ${why}`;
  } else {
    const planned = visit.planned_arrival instanceof Date ? visit.planned_arrival : new Date(visit.planned_arrival);
    const day = Temporal.Instant.fromEpochMilliseconds(planned.getTime()).toZonedDateTimeISO(visit.time_zone).toPlainDate().toString();
    const business = { name: visit.business_name, contactEmail: visit.contact_email, contactPhone: visit.contact_phone };
    const sentence = `Your visit from ${visit.business_name} on ${dateOf(day)} at ${timeOf(planned, visit.time_zone)} is cancelled.`;
    const unsubscribe = unsubscribeLinkOf(ctx, visit.client_id);
    try {
      if (mobile) {
        const contact = business.contactPhone.trim() ? ` Questions: ${business.contactPhone.trim()}.` : '';
        await sendSmsText(ctx.config.sms!, mobile, `${sentence}${contact} Stop messages: ${unsubscribe}`);
      } else {
        await ctx.mailer.send({
          to: email, businessAccountId, subject: `Your visit from ${visit.business_name} is cancelled`, fromName: visit.business_name,
          replyTo: visit.contact_email.trim() || undefined,
          text: [`Hello ${visit.client_first_name ?? ''},`, '', sentence, '', contactLine(business), '', `To stop these messages and reminders: ${unsubscribe}`].join('\n'),
          html: [
            '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
            `<p>Hello ${escapeHtml(visit.client_first_name ?? '')},</p>`, `<p>${escapeHtml(sentence)}</p>`, `<p>${escapeHtml(contactLine(business))}</p>`,
            `<p style="font-size: smaller"><a href="${escapeHtml(unsubscribe)}">Stop these messages and reminders</a></p>`, '</body></html>',
          ].join('\n'),
        });
      }
      sent = true;
      words = `Cancellation message sent by ${mobile ? 'SMS' : 'email'}`;
    } catch (error) {
      ctx.log.warn({ err: error, appointmentId }, 'cancellation message failed');
      words = `Cancellation message failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 300)}`;
    }
  }
  await recordVersion(ctx.db, {
    businessAccountId, itemType: 'Appointment', itemId: appointmentId, event: 'update', whodunnit: 'Rounds (cancellation message)',
    changes: { cancellation_message: [null, words] },
  });
  return sent;
}
