// Practitioners' leave and time off: listed by practitioner and dates (a practitioner sees only their own), entered,
// changed and removed by an admin as whole days or part of a day in the business's time zone. Leave imported from
// Cliniko's unavailable blocks is changed in Cliniko (the next import would undo a change here).
import { Temporal } from 'temporal-polyfill';
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { BodyOf, QueryOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, invalid, notFound } from '../../http/errors';
import { businessTimeZone } from '../../db/business-time-zone';
import { dateProblem } from '../../lib/day-range';
import {
  deleteLeave, findLeave, findPractitioner, insertLeave, leaveOverlapping, updateLeave, type LeaveRow, type LeaveValues,
} from './repository';

export type LeaveInput = BodyOf<'createPractitionerLeave'>;

/** The longest leave one entry may cover (a longer absence is entered as several). */
const MAX_LEAVE_DAYS = 366;
/** The widest date range one list may ask for. */
const MAX_LIST_DAYS = 400;

/** Where "Unavailable from now" ends: the last minute of the day. */
const END_OF_DAY = '23:59';

const IMPORTED = 'This leave was imported from Cliniko (an unavailable block): change or remove it in Cliniko; the next import brings the change.';

/** A requested date, held to the dates bookings, imports and runs accept (the database refuses years like 0000). */
function parseDate(value: string, field: string): Temporal.PlainDate {
  const problem = dateProblem(value, field);
  if (problem) throw invalid(problem);
  return Temporal.PlainDate.from(value);
}

const plainTime = (hhmm: string) => Temporal.PlainTime.from(`${hhmm}:00`);
const hhmmOf = (time: Temporal.ZonedDateTime) => time.toPlainTime().toString({ smallestUnit: 'minute' });

/** The instants of the leave an admin entered, checked; every problem in words naming its field. */
function leaveInstants(input: LeaveInput, timeZone: string): { startsAt: Date; endsAt: Date } {
  const startDate = parseDate(input.start_date, 'start_date');
  const endDate = parseDate(input.end_date, 'end_date');
  const hasStart = input.start_time !== undefined && input.start_time !== null;
  const hasEnd = input.end_time !== undefined && input.end_time !== null;
  if (hasStart !== hasEnd) {
    throw invalid('start_time and end_time go together: give both for part of a day, or neither for whole days.');
  }
  if (Temporal.PlainDate.compare(endDate, startDate) < 0) {
    throw invalid(`end_date: the last day (${input.end_date}) must not be before the first (${input.start_date}).`);
  }
  const starts = hasStart
    ? startDate.toZonedDateTime({ timeZone, plainTime: plainTime(input.start_time!) })
    : startDate.toZonedDateTime({ timeZone });
  const ends = hasEnd
    ? endDate.toZonedDateTime({ timeZone, plainTime: plainTime(input.end_time!) })
    : endDate.add({ days: 1 }).toZonedDateTime({ timeZone });
  if (Temporal.ZonedDateTime.compare(ends, starts) <= 0) {
    throw invalid(`end_time: the leave must end after it starts (${input.end_time} is not after ${input.start_time} on ${input.start_date}).`);
  }
  if (starts.until(ends, { largestUnit: 'hours' }).total('hours') > MAX_LEAVE_DAYS * 24) {
    throw invalid(`end_date: leave can be at most a year long (${MAX_LEAVE_DAYS} days); enter a longer absence as several entries.`);
  }
  return { startsAt: new Date(starts.epochMilliseconds), endsAt: new Date(ends.epochMilliseconds) };
}

/** A leave row as the contract shows it: whole days when it runs midnight to midnight in the business's zone. */
export function toLeaveDto(row: LeaveRow, timeZone: string): Schemas['PractitionerLeave'] {
  const starts = Temporal.Instant.fromEpochMilliseconds(row.starts_at.getTime()).toZonedDateTimeISO(timeZone);
  const ends = Temporal.Instant.fromEpochMilliseconds(row.ends_at.getTime()).toZonedDateTimeISO(timeZone);
  const midnight = (time: Temporal.ZonedDateTime) => time.equals(time.startOfDay());
  const wholeDays = midnight(starts) && midnight(ends);
  return {
    id: row.id,
    practitioner_id: row.practitioner_id,
    starts_at: row.starts_at.toISOString(),
    ends_at: row.ends_at.toISOString(),
    start_date: starts.toPlainDate().toString(),
    end_date: (wholeDays ? ends.toPlainDate().subtract({ days: 1 }) : ends.toPlainDate()).toString(),
    start_time: wholeDays ? null : hhmmOf(starts),
    end_time: wholeDays ? null : hhmmOf(ends),
    reason: row.reason,
    source: row.source,
    cliniko_block_id: row.cliniko_block_id,
    created_by_name: row.created_by_name,
  };
}

export class LeaveService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext, query: QueryOf<'listPractitionerLeave'>): Promise<Schemas['PractitionerLeave'][]> {
    const { businessAccountId } = auth;
    const timeZone = await businessTimeZone(this.ctx.db, businessAccountId);
    const start = query.start_date ? parseDate(query.start_date, 'start_date') : Temporal.Now.plainDateISO(timeZone);
    const end = query.end_date ? parseDate(query.end_date, 'end_date') : start.add({ days: 365 });
    if (Temporal.PlainDate.compare(end, start) < 0) throw invalid(`end_date (${end}) must not be before start_date (${start}).`);
    if (start.until(end).total('days') >= MAX_LIST_DAYS) throw invalid(`Ask for at most ${MAX_LIST_DAYS} days of leave at once.`);
    const scope = practitionerScope(auth);
    let practitionerIds: number[] | null = query.practitioner_id === undefined ? scope : [query.practitioner_id];
    if (scope && practitionerIds) practitionerIds = practitionerIds.filter((id) => scope.includes(id));
    const rows = await leaveOverlapping(
      this.ctx.db, businessAccountId, practitionerIds,
      new Date(start.toZonedDateTime({ timeZone }).epochMilliseconds), new Date(end.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds),
    );
    return rows.map((row) => toLeaveDto(row, timeZone));
  }

  async create(auth: AuthContext, input: LeaveInput): Promise<Schemas['PractitionerLeave']> {
    const { businessAccountId } = auth;
    const timeZone = await businessTimeZone(this.ctx.db, businessAccountId);
    const values = this.valuesOf(input, timeZone);
    const row = await this.ctx.db.transaction(async (tx) => {
      await this.checkPractitioner(tx, businessAccountId, input.practitioner_id);
      return insertLeave(tx, businessAccountId, { ...values, source: 'manual', cliniko_block_id: null, created_by_name: auth.fullName });
    });
    return toLeaveDto(row, timeZone);
  }

  /**
   * "Unavailable from now" (a coordinator's, for a practitioner who falls sick or whose car breaks down): leave today
   * from `from_time` (default now, to the minute) to the end of the day.
   */
  async unavailableToday(auth: AuthContext, input: BodyOf<'markPractitionerUnavailableToday'>, now = Temporal.Now.instant()): Promise<Schemas['PractitionerLeave']> {
    const timeZone = await businessTimeZone(this.ctx.db, auth.businessAccountId);
    const here = now.toZonedDateTimeISO(timeZone);
    const from = input.from_time ?? hhmmOf(here);
    if (from >= END_OF_DAY) throw invalid(`from_time: enter a time before ${END_OF_DAY} (got ${from}).`);
    const today = here.toPlainDate().toString();
    return this.create(auth, { practitioner_id: input.practitioner_id, start_date: today, end_date: today, start_time: from, end_time: END_OF_DAY, reason: input.reason });
  }

  async update(auth: AuthContext, id: number, input: LeaveInput): Promise<Schemas['PractitionerLeave']> {
    const { businessAccountId } = auth;
    const timeZone = await businessTimeZone(this.ctx.db, businessAccountId);
    const values = this.valuesOf(input, timeZone);
    const row = await this.ctx.db.transaction(async (tx) => {
      const before = await findLeave(tx, businessAccountId, id, true);
      if (!before) throw notFound('Leave');
      if (before.source === 'cliniko') throw conflict(IMPORTED, 'LEAVE_IMPORTED');
      await this.checkPractitioner(tx, businessAccountId, input.practitioner_id);
      return updateLeave(tx, businessAccountId, id, values);
    });
    return toLeaveDto(row, timeZone);
  }

  async delete(auth: AuthContext, id: number): Promise<void> {
    await this.ctx.db.transaction(async (tx) => {
      const before = await findLeave(tx, auth.businessAccountId, id, true);
      if (!before) throw notFound('Leave');
      if (before.source === 'cliniko') throw conflict(IMPORTED, 'LEAVE_IMPORTED');
      await deleteLeave(tx, auth.businessAccountId, id);
    });
  }

  private valuesOf(input: LeaveInput, timeZone: string): LeaveValues {
    const { startsAt, endsAt } = leaveInstants(input, timeZone);
    return { practitioner_id: input.practitioner_id, starts_at: startsAt, ends_at: endsAt, reason: input.reason?.trim() || null };
  }

  private async checkPractitioner(tx: AppContext['db'], businessAccountId: number, practitionerId: number): Promise<void> {
    if (!await findPractitioner(tx, businessAccountId, practitionerId)) {
      throw invalid(`practitioner_id: there is no practitioner ${practitionerId} in this business.`);
    }
  }
}
