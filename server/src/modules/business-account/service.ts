// Account settings (ADMIN): the business's name, time zone ("today", reports and reminders follow it), contact details,
// default map centre, first day of the week, the daily appointment reminder, how far from the client an arrival is
// flagged, how long after its planned start a visit with no check-in is overdue and how far a re-plan must move an arrival for Apply to tell the client. Each save that changes something is in the change log (item BusinessAccount, id = the business's), which the
// Activity report shows as a settings change.
import type { AuthContext } from '../../auth/access';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { canonicalTimeZone } from '../../lib/time-zone';
import { overdueAfterMinutesProblem } from '../../lib/overdue';
import { etaReplanMinutesProblem } from '../../lib/arrival-changes';
import { changesBetween, recordVersion } from '../audit';
import { toBusinessAccountDto } from './dto';
import { findBusinessAccount, lockBusinessAccount, updateBusinessAccountSettings, type BusinessAccountRow, type BusinessAccountSettingsColumns } from './repository';

export type BusinessAccountUpdate = BodyOf<'updateBusinessAccount'>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()\-.]{6,}$/;
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** The columns after `input`, or a 422 naming every field that is wrong. */
export function applyBusinessAccountUpdate(current: BusinessAccountSettingsColumns, input: BusinessAccountUpdate): BusinessAccountSettingsColumns {
  const problems: string[] = [];
  const next = { ...current };
  if (input.name !== undefined) {
    if (!input.name.trim()) problems.push('name: enter the business name.');
    next.name = input.name.trim();
  }
  if (input.time_zone !== undefined) {
    const zone = canonicalTimeZone(input.time_zone);
    if (!zone) problems.push(`time_zone: "${input.time_zone}" is not an IANA time zone name such as Australia/Brisbane.`);
    else next.time_zone = zone;
  }
  if (input.contact_email !== undefined) {
    const email = input.contact_email.trim();
    if (email && !EMAIL.test(email)) problems.push('contact_email: enter an email address such as office@example.com, or leave it empty.');
    next.contact_email = email;
  }
  if (input.contact_phone !== undefined) {
    const phone = input.contact_phone.trim();
    if (phone && !PHONE.test(phone)) problems.push('contact_phone: use digits, spaces, brackets, dashes and a leading +, at least 6 characters, or leave it empty.');
    next.contact_phone = phone;
  }
  if (input.map_center !== undefined) {
    next.map_center_lat = input.map_center?.lat ?? null;
    next.map_center_lng = input.map_center?.lng ?? null;
  }
  if (input.week_start !== undefined) next.week_start = input.week_start;
  if (input.reminder_hour !== undefined) next.reminder_hour = input.reminder_hour;
  if (input.reminders_enabled !== undefined) next.reminders_enabled = input.reminders_enabled;
  if (input.eta_messages_enabled !== undefined) next.eta_messages_enabled = input.eta_messages_enabled;
  if (input.arrival_far_metres !== undefined) next.arrival_far_metres = input.arrival_far_metres;
  if (input.overdue_after_minutes !== undefined) {
    const problem = overdueAfterMinutesProblem(input.overdue_after_minutes);
    if (problem) problems.push(problem);
    else next.overdue_after_minutes = input.overdue_after_minutes;
  }
  if (input.eta_replan_minutes !== undefined) {
    const problem = etaReplanMinutesProblem(input.eta_replan_minutes);
    if (problem) problems.push(problem);
    else next.eta_replan_minutes = input.eta_replan_minutes;
  }
  if (input.care_plan_weeks_ahead !== undefined) next.care_plan_weeks_ahead = input.care_plan_weeks_ahead;
  if (problems.length) throw invalid(problems[0], problems);
  return next;
}

/** The change log's words for each setting, as the Activity report shows them. */
function loggedValues(columns: BusinessAccountSettingsColumns): Record<string, unknown> {
  const hasCentre = columns.map_center_lat !== null && columns.map_center_lng !== null;
  return {
    name: columns.name,
    time_zone: columns.time_zone,
    contact_email: columns.contact_email,
    contact_phone: columns.contact_phone,
    map_center: hasCentre ? `${columns.map_center_lat!.toFixed(4)}, ${columns.map_center_lng!.toFixed(4)}` : 'Brisbane (default)',
    week_start: DAY_NAMES[columns.week_start],
    reminder_hour: `${String(columns.reminder_hour).padStart(2, '0')}:00`,
    reminders_enabled: columns.reminders_enabled,
    eta_messages_enabled: columns.eta_messages_enabled,
    arrival_far_metres: `${columns.arrival_far_metres} m`,
    overdue_after_minutes: `${columns.overdue_after_minutes} min`,
    eta_replan_minutes: `${columns.eta_replan_minutes} min`,
    care_plan_weeks_ahead: `${columns.care_plan_weeks_ahead} weeks`,
  };
}

const settingsOf = (row: BusinessAccountRow): BusinessAccountSettingsColumns => ({
  name: row.name, time_zone: row.time_zone, contact_email: row.contact_email, contact_phone: row.contact_phone,
  map_center_lat: row.map_center_lat, map_center_lng: row.map_center_lng, week_start: row.week_start,
  reminder_hour: row.reminder_hour, reminders_enabled: row.reminders_enabled,
  eta_messages_enabled: row.eta_messages_enabled, arrival_far_metres: row.arrival_far_metres,
  overdue_after_minutes: row.overdue_after_minutes, eta_replan_minutes: row.eta_replan_minutes,
  care_plan_weeks_ahead: row.care_plan_weeks_ahead,
});

export class BusinessAccountService {
  constructor(private readonly ctx: AppContext) {}

  async get(auth: AuthContext): Promise<Schemas['BusinessAccount']> {
    const row = await findBusinessAccount(this.ctx.db, auth.businessAccountId);
    if (!row) throw notFound('Business account');
    return toBusinessAccountDto(row);
  }

  async update(auth: AuthContext, input: BusinessAccountUpdate): Promise<Schemas['BusinessAccount']> {
    const { businessAccountId } = auth;
    const saved = await this.ctx.db.transaction(async (tx) => {
      const row = await lockBusinessAccount(tx, businessAccountId);
      const before = settingsOf(row);
      const after = applyBusinessAccountUpdate(before, input);
      const changes = changesBetween(loggedValues(before), loggedValues(after));
      if (Object.keys(changes).length === 0) return row;
      const updated = await updateBusinessAccountSettings(tx, businessAccountId, after);
      await recordVersion(tx, { businessAccountId, itemType: 'BusinessAccount', itemId: businessAccountId, event: 'update', whodunnit: auth.fullName, changes });
      return updated;
    });
    return toBusinessAccountDto(saved);
  }
}
