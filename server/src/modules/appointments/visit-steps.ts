// A visit as it happens: the practitioner's steps On my way → Arrived → Done, or Could not attend with a
// reason, and a coordinator's reopening. Each step is kept as a row (its time, the phone's place, the distance to the
// visit's point, who recorded it) and moves the appointment's visit_state in the same transaction. A phone that sends
// a step twice (a retry after a lost answer) sends the same idempotency key, and gets the first answer back.
import { Temporal } from 'temporal-polyfill';
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, forbidden, HttpError, invalid, notFound } from '../../http/errors';
import type { VisitState, VisitStepKind } from '../../db/schema-visits';
import { enqueueJob } from '../../jobs/queue';
import { recordVersion, versionsOf } from '../audit';
import { findAppointment, lockAppointment } from './repository';
import { insertStep, setVisitState, type VisitStepRow } from '../schedule';
import { currentSteps, isDuplicateKey, lastReopening, stepByKey, stepSettingsOf } from './visit-steps-repository';
import { longDate } from '../../lib/long-date';

export type VisitStepInput = BodyOf<'recordVisitStep'>;

/**
 * A phone's clock may run ahead of the server's: a step up to this far ahead is recorded at the server's now (a step
 * cannot have happened later than it arrived); further ahead is refused.
 */
const CLOCK_SKEW_MS = 15 * 60_000;

/**
 * How long after a step happened its phone may still send it: a practitioner without signal all evening sends the
 * day's steps the next morning. A step is judged by its own time (`at`), not by the day it reaches the server.
 */
export const STEP_DELAY_DAYS = 7;

/** What each step is called where a person reads it. */
export const STEP_WORDS: Record<VisitStepKind, string> = {
  on_my_way: 'On my way', arrived: 'Arrived', done: 'Done', could_not_attend: 'Could not attend', reopened: 'Reopened',
};
const STATE_WORDS: Record<VisitState, string> = {
  not_started: 'not started', on_my_way: 'on the way', arrived: 'arrived', done: 'done', could_not_attend: 'marked could not attend',
};
const REASON_WORDS: Record<NonNullable<VisitStepRow['reason']>, string> = {
  client_not_home: 'client not home', refused: 'refused', hospital: 'in hospital', other: 'other',
};

/** The states each step may follow, and the state it leaves. Arrived may come without On my way (a tap forgotten). */
const STEPS: Record<VisitStepKind, { from: readonly VisitState[]; to: VisitState }> = {
  on_my_way: { from: ['not_started'], to: 'on_my_way' },
  arrived: { from: ['not_started', 'on_my_way'], to: 'arrived' },
  done: { from: ['arrived'], to: 'done' },
  could_not_attend: { from: ['not_started', 'on_my_way', 'arrived'], to: 'could_not_attend' },
  reopened: { from: ['on_my_way', 'arrived', 'done', 'could_not_attend'], to: 'not_started' },
};

/** Why a step cannot follow the visit's state, in words. */
function outOfOrder(step: VisitStepKind, state: VisitState): string {
  if (step === 'reopened') return 'This visit has not started, so there is nothing to reopen.';
  if (state === 'done' || state === 'could_not_attend') {
    return `This visit is already ${STATE_WORDS[state]}: ${STEP_WORDS[step]} cannot follow. A coordinator can reopen it.`;
  }
  if (step === 'done') return `${STEP_WORDS.done} comes after ${STEP_WORDS.arrived}: this visit is ${STATE_WORDS[state]}. Tap Arrived first.`;
  if (step === state) return `This visit is already ${STATE_WORDS[state]}.`;
  return `${STEP_WORDS[step]} cannot follow: this visit is already ${STATE_WORDS[state]}.`;
}

/** Metres between two points on the earth (haversine). */
export function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The input's own problems (before any visit is read), each naming its field. */
function checkInput(input: VisitStepInput): void {
  const problems: string[] = [];
  if (input.step === 'could_not_attend' && !input.reason) problems.push('reason: say why the visit could not happen (client not home, refused, hospital or other).');
  if (input.step !== 'could_not_attend' && input.reason) problems.push(`reason: only Could not attend takes a reason, not ${STEP_WORDS[input.step]}.`);
  if (input.reason === 'other' && !input.reason_text?.trim()) problems.push("reason_text: say in words what happened when the reason is 'other'.");
  if (input.reason_text !== undefined && input.step !== 'could_not_attend') problems.push('reason_text: only Could not attend takes a reason.');
  if (input.note !== undefined && input.step !== 'done') problems.push(`note: only Done takes a note, not ${STEP_WORDS[input.step]}.`);
  if ((input.lat === undefined) !== (input.lng === undefined)) problems.push('lat and lng go together: send both or neither.');
  if (input.accuracy_m !== undefined && input.lat === undefined) problems.push('accuracy_m: send it with lat and lng.');
  if (problems.length) throw invalid(problems.join(' '), problems);
}

function parseAt(text: string): Temporal.Instant {
  try {
    return Temporal.Instant.from(text);
  } catch {
    throw invalid(`at must be an ISO 8601 timestamp with a time zone offset, e.g. 2026-11-24T09:00:00+10:00 (got "${text}").`);
  }
}

const clockWords = (instant: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainTime().toString({ smallestUnit: 'minute' });

const dateTimeWords = (instant: Date, timeZone: string) => {
  const zoned = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return `${clockWords(instant, timeZone)} on ${longDate(zoned.toPlainDate(), { withYear: false })}`;
};

export function toStepDto(row: VisitStepRow): Schemas['VisitStep'] {
  return {
    id: row.id,
    appointment_id: row.appointment_id,
    step: row.step,
    at: row.at.toISOString(),
    recorded_at: row.recorded_at.toISOString(),
    lat: row.lat,
    lng: row.lng,
    accuracy_m: row.accuracy_m,
    distance_m: row.distance_m,
    far_from_client: row.far_from_client,
    reason: row.reason,
    reason_text: row.reason_text,
    note: row.note,
    recorded_by_name: row.recorded_by_name,
  };
}

export interface RecordedStep {
  /** False when the idempotency key had been used: the first answer, nothing recorded. */
  created: boolean;
  step: Schemas['VisitStep'];
  appointment: Schemas['Appointment'];
}

export class VisitStepsService {
  constructor(private readonly ctx: AppContext) {}

  async record(auth: AuthContext, appointmentId: number, input: VisitStepInput): Promise<RecordedStep> {
    checkInput(input);
    if (input.step === 'reopened' && auth.role === 'PRACTITIONER') {
      throw forbidden('Only a coordinator can reopen a visit: ask the office.');
    }
    const at = input.at === undefined ? null : parseAt(input.at);
    const scope = { businessAccountId: auth.businessAccountId, practitionerIds: practitionerScope(auth) };
    let outcome: { created: boolean; row: VisitStepRow };
    try {
      outcome = await this.ctx.db.transaction((tx) => this.recordIn(tx, auth, scope, appointmentId, input, at));
    } catch (error) {
      // The same key sent twice at once for two visits: the first committed; the second reads its answer.
      if (!isDuplicateKey(error)) {
        // The refusal is the answer; a change log that cannot be written meanwhile does not replace it.
        await this.noteRefusal(auth, scope, appointmentId, input, at, error)
          .catch((failure: unknown) => this.ctx.log.warn({ err: failure }, "a refused step's change-log entry could not be written"));
        throw error;
      }
      outcome = { created: false, row: await this.replay(this.ctx.db, auth.businessAccountId, appointmentId, input) };
    }
    const appointment = await findAppointment(this.ctx.db, scope, appointmentId);
    if (!appointment) throw notFound('Appointment');
    return { created: outcome.created, step: toStepDto(outcome.row), appointment };
  }

  /**
   * A practitioner's step the server refuses (sent from an offline phone after the office reopened the visit, a week
   * late, …) is written on the visit's change log, so the office sees what the phone recorded and can act on it; the
   * phone keeps showing it as not recorded.
   */
  private async noteRefusal(
    auth: AuthContext, scope: { businessAccountId: number; practitionerIds: number[] | null }, appointmentId: number,
    input: VisitStepInput, at: Temporal.Instant | null, error: unknown,
  ): Promise<void> {
    if (auth.role !== 'PRACTITIONER' || !(error instanceof HttpError) || ![403, 409, 422].includes(error.statusCode)) return;
    if (error.code === 'IDEMPOTENCY_KEY_REUSED' || error.code === 'VISIT_STEP_RETRY') return;
    // A visit given to someone else since was theirs (notTheirs checked it); any other must be in their scope.
    const visible = error.code === 'VISIT_REASSIGNED' ? { ...scope, practitionerIds: null } : scope;
    if (!(await findAppointment(this.ctx.db, visible, appointmentId))) return;
    const { timeZone } = await stepSettingsOf(this.ctx.db, auth.businessAccountId);
    const taken = at ? ` taken at ${dateTimeWords(new Date(at.epochMilliseconds), timeZone)}` : '';
    await recordVersion(this.ctx.db, {
      businessAccountId: auth.businessAccountId, itemType: 'Appointment', itemId: appointmentId, event: 'update', whodunnit: auth.fullName,
      changes: { step_not_recorded: [null, `${STEP_WORDS[input.step]}${taken} was sent from the phone and not recorded: ${error.message}`] },
    });
  }

  private async replay(db: AppContext['db'], businessAccountId: number, appointmentId: number, input: VisitStepInput): Promise<VisitStepRow> {
    const first = await stepByKey(db, businessAccountId, input.idempotency_key);
    if (!first) throw conflict('The step could not be stored: send it again.', 'VISIT_STEP_RETRY');
    if (first.appointment_id !== appointmentId || first.step !== input.step) {
      throw conflict('This idempotency_key was already used for another step: make a new key for each step.', 'IDEMPOTENCY_KEY_REUSED');
    }
    return first;
  }

  private async recordIn(
    tx: AppContext['db'], auth: AuthContext, scope: { businessAccountId: number; practitionerIds: number[] | null },
    appointmentId: number, input: VisitStepInput, at: Temporal.Instant | null,
  ): Promise<{ created: boolean; row: VisitStepRow }> {
    const businessAccountId = auth.businessAccountId;
    const appointment = await lockAppointment(tx, scope, appointmentId);
    if (!appointment) throw await notTheirs(tx, auth, appointmentId);
    // Under the visit's lock, so a retry racing its first send waits for it and reads its answer.
    if (await stepByKey(tx, businessAccountId, input.idempotency_key)) {
      return { created: false, row: await this.replay(tx, businessAccountId, appointmentId, input) };
    }
    if (appointment.cancelled_at) throw conflict('This visit is cancelled: its steps cannot be recorded.', 'APPOINTMENT_CANCELLED');

    const { timeZone, arrivalFarMetres, etaMessages } = await stepSettingsOf(tx, businessAccountId);
    const now = Temporal.Now.instant();
    const visitDay = Temporal.Instant.fromEpochMilliseconds(appointment.starts_at.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
    const dayWords = longDate(visitDay, { withYear: false });

    if (at && Temporal.Instant.compare(at, now.add({ milliseconds: CLOCK_SKEW_MS })) > 0) {
      throw invalid(`at: ${input.at} is in the future; send the time the step happened.`);
    }
    const when = at && Temporal.Instant.compare(at, now) < 0 ? at : now;
    const dayStart = visitDay.toZonedDateTime({ timeZone }).toInstant();
    if (Temporal.Instant.compare(when, dayStart) < 0) {
      throw at
        ? invalid(`at: the step's time is before the visit's day (${dayWords}, ${timeZone}).`)
        : conflict(`This visit is on ${dayWords}: its steps can be recorded from that day.`, 'VISIT_NOT_YET');
    }
    if (auth.role === 'PRACTITIONER') {
      // The step's own time decides, whenever it reaches the server: on the visit's day or the night after it (a late
      // visit finishing after midnight), and sent within STEP_DELAY_DAYS of happening.
      const nightAfterEnds = visitDay.add({ days: 2 }).toZonedDateTime({ timeZone }).toInstant();
      if (Temporal.Instant.compare(when, nightAfterEnds) >= 0) {
        throw forbidden(`This visit was on ${dayWords}: a step taken after the day that follows it cannot be recorded from the phone. Ask the office to record it.`, 'VISIT_DAY_CLOSED');
      }
      if (now.since(when).total('days') > STEP_DELAY_DAYS) {
        throw forbidden(`This step was taken more than ${STEP_DELAY_DAYS} days ago (${dayWords}): it can no longer be sent from the phone. Ask the office to record it.`, 'VISIT_DAY_CLOSED');
      }
    }

    const reopening = input.step === 'reopened' ? undefined : await lastReopening(tx, businessAccountId, appointmentId);
    if (reopening && reopening.at.getTime() > when.epochMilliseconds) {
      // An older step reaching the server after a coordinator reopened the visit (a phone offline meanwhile) would undo
      // the reopening: the office's decision stands.
      throw conflict(`${reopening.recorded_by_name ?? 'The office'} reopened this visit at ${clockWords(reopening.at, timeZone)}, after this `
        + `${STEP_WORDS[input.step]} (${clockWords(new Date(when.epochMilliseconds), timeZone)}): it was not recorded. Tap it again if it still applies.`, 'VISIT_REOPENED');
    }
    const state = appointment.visit_state;
    const rule = STEPS[input.step];
    if (!rule.from.includes(state)) throw conflict(outOfOrder(input.step, state), 'VISIT_STEP_OUT_OF_ORDER');
    const steps = input.step === 'reopened' ? [] : await currentSteps(tx, businessAccountId, appointmentId);
    const last = steps.at(-1);
    if (last && last.at.getTime() > when.epochMilliseconds) {
      throw invalid(`at: ${STEP_WORDS[input.step]} cannot be before ${STEP_WORDS[last.step]} (${clockWords(last.at, timeZone)}).`);
    }

    const place = input.lat !== undefined && input.lng !== undefined ? { lat: input.lat, lng: input.lng } : null;
    const visitPoint = appointment.lat !== null && appointment.lng !== null ? { lat: appointment.lat, lng: appointment.lng } : null;
    const distance = place && visitPoint ? Math.round(metresBetween(place, visitPoint)) : null;
    const far = input.step === 'arrived' && distance !== null && distance > arrivalFarMetres;

    const row = await insertStep(tx, businessAccountId, {
      appointment_id: appointmentId,
      step: input.step,
      at: new Date(when.epochMilliseconds),
      lat: place?.lat ?? null,
      lng: place?.lng ?? null,
      accuracy_m: place ? input.accuracy_m ?? null : null,
      distance_m: distance,
      far_from_client: far,
      reason: input.reason ?? null,
      reason_text: input.reason_text?.trim() || null,
      note: input.note?.trim() || null,
      idempotency_key: input.idempotency_key,
      recorded_by_user_id: auth.userId,
      recorded_by_name: auth.fullName,
    });
    await setVisitState(tx, businessAccountId, appointmentId, rule.to);
    await recordVersion(tx, {
      businessAccountId, itemType: 'Appointment', itemId: appointmentId, event: 'update', whodunnit: auth.fullName,
      changes: { visit_state: [state, rule.to] },
      reason: stepReason(row, timeZone, arrivalFarMetres),
    });
    // The client's ETA message goes from a job once this commits (the reminders module's ETA_MESSAGE): a slow or
    // failed send never slows or fails the step, and a retried step (its key seen above) enqueues nothing.
    if (input.step === 'on_my_way' && etaMessages) {
      await enqueueJob(tx, {
        businessAccountId, kind: 'ETA_MESSAGE', maxAttempts: 1, startDate: visitDay.toString(), endDate: visitDay.toString(),
        createdByUserId: auth.userId, createdByName: auth.fullName, params: { appointment_id: appointmentId, visit_step_id: row.id },
      });
    }
    return { created: true, row };
  }
}

/**
 * Why a practitioner's step finds no visit of theirs: a visit of the business that was theirs and was given to another
 * practitioner since (their phone was offline meanwhile) is said in words, so the step is not silently lost; anything
 * else is not found.
 */
async function notTheirs(tx: AppContext['db'], auth: AuthContext, appointmentId: number): Promise<HttpError> {
  const ownIds = practitionerScope(auth);
  if (!ownIds) return notFound('Appointment');
  const business = { businessAccountId: auth.businessAccountId, practitionerIds: null };
  if (!(await lockAppointment(tx, business, appointmentId))) return notFound('Appointment');
  const handedOver = (await versionsOf(tx, auth.businessAccountId, 'Appointment', appointmentId))
    .filter((version) => ownIds.includes(Number(version.object_changes.practitioner_id?.[0]))).at(-1);
  if (!handedOver) return notFound('Appointment');
  const { timeZone } = await stepSettingsOf(tx, auth.businessAccountId);
  return conflict(`This visit was given to another practitioner${handedOver.whodunnit ? ` by ${handedOver.whodunnit}` : ''} at `
    + `${dateTimeWords(handedOver.created_at, timeZone)}: your step was not recorded. Ask the office.`, 'VISIT_REASSIGNED');
}

/** The change log's words for a step: its time, and what it said beyond the state. */
function stepReason(row: VisitStepRow, timeZone: string, farMetres: number): string {
  const parts = [`${STEP_WORDS[row.step]} at ${clockWords(row.at, timeZone)}`];
  if (row.reason) parts.push(`reason: ${REASON_WORDS[row.reason]}${row.reason_text ? ` (${row.reason_text})` : ''}`);
  if (row.note) parts.push(`note: ${row.note}`);
  if (row.distance_m !== null) parts.push(`${row.distance_m} m from the client's point${row.far_from_client ? ` (further than ${farMetres} m)` : ''}`);
  else if (row.step !== 'reopened' && row.lat === null) parts.push('no location sent');
  // A part that ends a sentence of its own (a note "Meds given, all well.") is not followed by a semicolon too.
  return parts.reduce((text, part) => `${text}${/[.!?]$/.test(text) ? ' ' : '; '}${part}`);
}
