// The ways a reminder reaches a client, behind one interface: email through the app's mailer (SMTP or the outbox),
// and SMS through a Twilio-compatible HTTP API when SMS_URL and its credentials are set.
import type { SmsConfig } from '../../config';
import type { Db } from '../../db/client';
import type { AppContext } from '../../http/context';
import type { ReminderChannel as ChannelName } from '../../db/schema-reminders';
import { reminderEmail, reminderSms, type ReminderContent } from './message';

export interface ReminderChannel {
  readonly name: ChannelName;
  /** Sends one client's reminder to `to` (an email address or a phone number); throws when it was not accepted. */
  send(to: string, content: ReminderContent, businessAccountId: number): Promise<void>;
  /**
   * Where the channel only writes rows (email without SMTP: the outbox), it writes a chunk's reminders through `db`,
   * the transaction that also marks them sent: delivered and marked in one commit.
   */
  keepAll?(db: Db, reminders: { to: string; content: ReminderContent }[], businessAccountId: number): Promise<void>;
}

export function emailChannel(ctx: AppContext): ReminderChannel {
  const emailOf = (to: string, content: ReminderContent, businessAccountId: number) => {
    const message = reminderEmail(content);
    return { to, businessAccountId, subject: message.subject, text: message.text, html: message.html };
  };
  return {
    name: 'email',
    async send(to, content, businessAccountId) {
      await ctx.mailer.send(emailOf(to, content, businessAccountId));
    },
    ...(ctx.mailer.hasSmtp ? {} : {
      async keepAll(db: Db, reminders: { to: string; content: ReminderContent }[], businessAccountId: number) {
        await ctx.mailer.keepInOutbox(db, reminders.map(({ to, content }) => emailOf(to, content, businessAccountId)));
      },
    }),
  };
}

/** A refusal or failure of the SMS API, with what it said (for the dashboard and the log). */
export class SmsError extends Error {}

const SMS_TIMEOUT_MS = 10_000;

/** Sends one text through the SMS API; throws an SmsError saying what went wrong when it was not accepted. */
export async function sendSmsText(sms: SmsConfig, to: string, body: string): Promise<void> {
  const endpoint = `${sms.url}/Accounts/${encodeURIComponent(sms.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64')}`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ To: to, From: sms.from, Body: body }).toString(),
      signal: AbortSignal.timeout(SMS_TIMEOUT_MS),
    });
  } catch (error) {
    throw new SmsError(`The SMS service could not be reached (${(error as Error).message}).`);
  }
  if (!response.ok) {
    const text = await response.text().catch(() => '');
    let detail = text.slice(0, 200);
    try {
      detail = String((JSON.parse(text) as { message?: unknown }).message ?? detail);
    } catch { /* not JSON: keep the text */ }
    detail = detail.trim().replace(/\.$/, '');
    throw new SmsError(`The SMS service answered ${response.status}${detail ? `: ${detail}` : ''}.`);
  }
}

export function smsChannel(sms: SmsConfig): ReminderChannel {
  return {
    name: 'sms',
    async send(to, content) {
      await sendSmsText(sms, to, reminderSms(content));
    },
  };
}

/** The channels this server sends reminders through: email always, SMS when configured. */
export function reminderChannels(ctx: AppContext): ReminderChannel[] {
  return ctx.config.sms ? [emailChannel(ctx), smsChannel(ctx.config.sms)] : [emailChannel(ctx)];
}
