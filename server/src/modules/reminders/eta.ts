// ETA messages to clients. A practitioner's On my way enqueues an ETA_MESSAGE job in the
// step's transaction; the job (here) tells the client about when the practitioner will arrive: by SMS when SMS is
// configured and the client has a mobile number, else by email when they have an address. The ETA is the step's time
// plus the travel from the phone's position to the visit's point by the server's travel provider (OSRM or the road
// factor), rounded up to 5 minutes; without a position, the planned arrival when it is still ahead; else no time.
// On my way is told once per visit: a retried or repeated step, the visit reopened, its arrival moved, send nothing more.
// No business sends more than ETA_MESSAGES_PER_MINUTE a minute: beyond it a message is recorded NOT_SENT, saying so (a
// runaway of steps never floods clients with paid texts). A re-plan's message (kind replan, queued by Apply: ./eta-replan.ts) tells the visit's new planned arrival, while the
// visit has not started and that arrival is ahead.
// Opted-out clients (the reminders' switch and unsubscribe link) and businesses with ETA messages off get none. Every
// outcome is recorded with its reason and written on the visit's change log; a failed send never fails the step.
import type { AppContext } from '../../http/context';
import { Temporal } from 'temporal-polyfill';
import type { EtaMessageKind, EtaMessageStatus, ReminderChannel } from '../../db/schema-reminders';
import { recordVersion } from '../audit';
import { travelProviderFor } from '../schedule';
import { sendSmsText } from './channels';
import { etaEmail, etaSms, type EtaContent } from './eta-message';
import { claimEtaMessage, etaVisit, finishEtaMessage, type EtaVisit } from './eta-repository';
import { timeOf } from './message';
import { firstMobile, unsubscribeLinkOf } from './service';

/** What an ETA_MESSAGE job carries (jobs.params). */
export interface EtaJobParams {
  appointment_id: number;
  visit_step_id: number | null;
  /** on_my_way when left out (the jobs of On my way). */
  kind?: EtaMessageKind;
  /** A re-plan gave the visit another practitioner: the message says so. */
  new_practitioner?: boolean;
}

export interface EtaOutcome {
  /** off: the business has ETA messages off; already: this change was told before; gone: the visit was removed. */
  status: Exclude<EtaMessageStatus, 'SENDING'> | 'off' | 'already' | 'gone';
  channel?: ReminderChannel | null;
  eta?: string | null;
  error?: string | null;
}

const ROUND_MS = 5 * 60_000;
const roundUp = (ms: number) => Math.ceil(ms / ROUND_MS) * ROUND_MS;
const CHANNEL_WORDS: Record<ReminderChannel, string> = { sms: 'SMS', email: 'email' };
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** The arrival to tell: from the phone's position when the step has one, else the planned arrival while it is ahead. */
async function etaOf(ctx: AppContext, visit: EtaVisit, stepAt: Date): Promise<Date | null> {
  const planned = asDate(visit.planned_arrival);
  if (visit.step_lat !== null && visit.step_lng !== null && visit.lat !== null && visit.lng !== null) {
    try {
      const matrix = await travelProviderFor(ctx.config).matrix([{ lat: visit.step_lat, lng: visit.step_lng }, { lat: visit.lat, lng: visit.lng }]);
      const seconds = matrix.durations[1];
      if (Number.isFinite(seconds)) return new Date(roundUp(stepAt.getTime() + seconds * 1000));
    } catch (error) {
      ctx.log.warn({ err: error, appointmentId: visit.appointment_id }, 'ETA travel time unavailable; the planned arrival is told');
    }
  }
  return planned.getTime() >= stepAt.getTime() ? planned : null;
}

/** The visit's message of its On my way step or of a re-plan, sent once (see the file's head). */
export async function sendEtaMessage(ctx: AppContext, businessAccountId: number, params: EtaJobParams, now = new Date()): Promise<EtaOutcome> {
  const visit = await etaVisit(ctx.db, businessAccountId, params.appointment_id, params.visit_step_id);
  if (!visit) return { status: 'gone' };
  if (!visit.eta_messages_enabled) return { status: 'off' };
  const kind = params.kind ?? 'on_my_way';
  const planned = asDate(visit.planned_arrival);
  const claim = await claimEtaMessage(ctx.db, businessAccountId, {
    appointmentId: visit.appointment_id, kind, plannedArrival: planned, visitStepId: params.visit_step_id,
  }, ctx.config.etaMessagesPerMinute);
  if (claim === null) return { status: 'already' };
  const { id } = claim;

  const stepAt = visit.step_at === null ? now : asDate(visit.step_at);
  const eta = kind === 'replan' ? planned : await etaOf(ctx, visit, stepAt);
  const visitDay = Temporal.Instant.fromEpochMilliseconds(planned.getTime()).toZonedDateTimeISO(visit.time_zone).toPlainDate().toString();
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(visit.time_zone).toPlainDate().toString();
  const email = visit.email?.trim() ?? '';
  const mobile = ctx.config.sms && visit.phone_numbers ? firstMobile(visit.phone_numbers) : null;
  const notSent = claim.overRate
    ? `The business's limit of ${ctx.config.etaMessagesPerMinute} ETA messages a minute was reached (ETA_MESSAGES_PER_MINUTE), so this one was held back.`
    : visit.client_id === null ? 'The visit has no client.'
    : !visit.client_messages_enabled ? 'The client turned reminders and messages off.'
      : visit.cancelled ? 'The visit was cancelled.'
        : kind === 'on_my_way' && visit.visit_state !== 'on_my_way' ? 'The visit had moved on from On my way before the message could go.'
          : kind === 'replan' && visit.visit_state !== 'not_started' ? 'The visit had started before the message could go.'
            : kind === 'replan' && planned.getTime() <= now.getTime() ? `The new arrival (${timeOf(planned, visit.time_zone)}) had passed before the message could go.`
              : eta && eta.getTime() < now.getTime() ? `The step reached the server after the estimated arrival (${timeOf(eta, visit.time_zone)}).`
            : !mobile && email.indexOf('@') <= 0
              ? (ctx.config.sms ? 'The client has no mobile number or email address.' : 'The client has no email address (and SMS is not configured).')
              : null;

  let outcome: EtaOutcome;
  if (notSent) {
    outcome = { status: 'NOT_SENT', channel: null, error: notSent };
  } else {
    const channel: ReminderChannel = mobile ? 'sms' : 'email';
    const content: EtaContent = {
      kind,
      newPractitioner: params.new_practitioner === true,
      otherDay: visitDay === today ? null : visitDay,
      business: { name: visit.business_name, contactEmail: visit.contact_email, contactPhone: visit.contact_phone },
      clientFirstName: visit.client_first_name ?? '',
      practitionerFirstName: visit.practitioner_first_name,
      eta,
      timeZone: visit.time_zone,
      unsubscribeLink: unsubscribeLinkOf(ctx, visit.client_id!),
    };
    try {
      if (channel === 'sms') {
        await sendSmsText(ctx.config.sms!, mobile!, etaSms(content));
      } else {
        const message = etaEmail(content);
        await ctx.mailer.send({
          to: email, businessAccountId, subject: message.subject, text: message.text, html: message.html,
          fromName: visit.business_name, replyTo: visit.contact_email.trim() || undefined,
        });
      }
      outcome = { status: 'SENT', channel };
    } catch (error) {
      ctx.log.warn({ err: error, appointmentId: visit.appointment_id, channel }, 'ETA message failed');
      outcome = { status: 'FAILED', channel, error: describe(error) };
    }
  }
  outcome.eta = eta?.toISOString() ?? null;
  await finishEtaMessage(ctx.db, id, { status: outcome.status as Exclude<EtaMessageStatus, 'SENDING'>, channel: outcome.channel ?? null, eta, error: outcome.error ?? null });
  await recordVersion(ctx.db, {
    businessAccountId, itemType: 'Appointment', itemId: visit.appointment_id, event: 'update', whodunnit: 'Rounds (ETA message)',
    changes: { eta_message: [null, etaWords(kind, outcome, eta, now, visit.time_zone)] },
  });
  return outcome;
}

/** The change log's words: "ETA message sent by SMS at 10:02 (arrival about 10:25 am)"; a re-plan's "New arrival message …". */
function etaWords(kind: EtaMessageKind, outcome: EtaOutcome, eta: Date | null, now: Date, timeZone: string): string {
  const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone }).format(now);
  const told = eta ? ` (arrival about ${timeOf(eta, timeZone)})` : ' (no arrival time told)';
  const name = kind === 'replan' ? 'New arrival message' : 'ETA message';
  const by = outcome.channel ? ` by ${CHANNEL_WORDS[outcome.channel]}` : '';
  if (outcome.status === 'SENT') return `${name} sent${by} at ${clock}${told}`;
  if (outcome.status === 'FAILED') return `${name} failed${by} at ${clock}: ${outcome.error}`;
  return `${name} not sent: ${outcome.error}`;
}
