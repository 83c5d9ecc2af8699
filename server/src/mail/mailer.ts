// Sends email through SMTP when SMTP_URL is set; every message is also kept in the outbox table, which is
// where mail goes (and the log says so) when no SMTP server is configured. The log names only the outbox row:
// bodies hold one-time links and recipients are personal data.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { outboxEmails } from '../db/schema';

/**
 * The address of MAIL_FROM: "Rounds <no-reply@rounds.local>" → "no-reply@rounds.local". Cliniko and Nominatim-compatible
 * geocoders want a contact email in the User-Agent.
 */
export function contactEmailOf(mailFrom: string): string {
  const match = mailFrom.match(/<([^>]+)>/);
  return (match ? match[1] : mailFrom).trim();
}

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  businessAccountId?: number;
  /** The sender's display name at MAIL_FROM's address (e.g. the business the email is sent for); else MAIL_FROM as it is. */
  fromName?: string;
  replyTo?: string;
}

/** A From header: the name quoted (one line, quotes and backslashes escaped) before the address. */
export function mailbox(name: string, address: string): string {
  const quoted = name.replace(/[\r\n]+/g, ' ').trim().replace(/["\\]/g, '\\$&');
  return quoted ? `"${quoted}" <${address}>` : address;
}

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(private readonly db: Db, private readonly log: Logger, smtpUrl: string | undefined, private readonly from: string) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  /** Whether email leaves through SMTP; without it, the outbox table is where email goes. */
  get hasSmtp(): boolean {
    return this.transport !== null;
  }

  /**
   * Without SMTP: keeps the emails in the outbox through `db`, so a caller's transaction commits them with its own
   * writes (the appointment reminders mark them sent in the same commit). Throws when SMTP is configured.
   */
  private headersOf(email: Email): { from: string; replyTo: string | undefined } {
    return { from: email.fromName ? mailbox(email.fromName, contactEmailOf(this.from)) : this.from, replyTo: email.replyTo || undefined };
  }

  async keepInOutbox(db: Db, emails: Email[]): Promise<void> {
    if (this.transport) throw new Error('keepInOutbox is for the outbox only; SMTP is configured');
    if (emails.length === 0) return;
    await db.insert(outboxEmails).values(emails.map((email) => ({
      business_account_id: email.businessAccountId ?? null, to_address: email.to, subject: email.subject,
      text_body: email.text, html_body: email.html ?? null, sent_at: null,
      from_address: this.headersOf(email).from, reply_to: this.headersOf(email).replyTo ?? null,
    })));
    this.log.info({ emails: emails.length }, 'emails kept in the outbox table (no SMTP_URL configured)');
  }

  async send(email: Email): Promise<void> {
    let sentAt: Date | null = null;
    const { from, replyTo } = this.headersOf(email);
    if (this.transport) {
      await this.transport.sendMail({ from, replyTo, to: email.to, subject: email.subject, text: email.text, html: email.html });
      sentAt = new Date();
    }
    const [row] = await this.db.insert(outboxEmails).values({
      business_account_id: email.businessAccountId ?? null,
      to_address: email.to,
      subject: email.subject,
      text_body: email.text,
      html_body: email.html ?? null,
      from_address: from,
      reply_to: replyTo ?? null,
      sent_at: sentAt,
    }).returning({ id: outboxEmails.id });
    if (!this.transport) this.log.info({ outboxEmailId: row.id }, 'email kept in the outbox table (no SMTP_URL configured)');
  }
}
