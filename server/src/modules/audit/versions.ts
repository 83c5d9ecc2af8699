// The change log: one `versions` row per change to an appointment, a client, a practitioner's working data, a custom
// location, a tag, an appointment type, a user, or the optimisation or sync settings, written in the same transaction as the change. object_changes maps each
// changed field to [old, new].
import { and, asc, eq, inArray } from 'drizzle-orm';
import { bulkInsert } from '../../db/bulk';
import type { DbOrTx } from '../../db/client';
import { appointmentTypes, businessLocations, clients, practitioners, routes, tags, versions } from '../../db/schema';

/** OptimizationSettings, SyncSettings and BusinessAccount versions use the business account's id as item_id (one record per business). */
export type VersionedItem = 'Appointment' | 'Client' | 'Practitioner' | 'CustomLocation' | 'OptimizationSettings' | 'SyncSettings' | 'Tag' | 'AppointmentType' | 'User' | 'BusinessAccount';
export type VersionEvent = 'create' | 'update' | 'destroy';
export type ObjectChanges = Record<string, [unknown, unknown]>;

export interface VersionInput {
  businessAccountId: number;
  itemType: VersionedItem;
  itemId: number;
  event: VersionEvent;
  /** The author: a user's full name, 'Import #12', 'Client (availability link)', … */
  whodunnit: string | null;
  changes: ObjectChanges;
  /** Why, when the change itself does not say it (e.g. an import replacing a local arrival time). */
  reason?: string | null;
}

/** Dates become ISO strings so that the stored pair reads the same whichever driver wrote it. */
function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

/** Records a version; an update without any changed field records nothing and answers false. */
export async function recordVersion(tx: DbOrTx, input: VersionInput): Promise<boolean> {
  return (await recordVersions(tx, [input])) > 0;
}

/**
 * Records several versions in one insert, skipping updates without any changed field; answers how many it recorded.
 * Set-based, so an import's page or a whole range of cancelled appointments is one statement.
 */
export async function recordVersions(tx: DbOrTx, inputs: readonly VersionInput[]): Promise<number> {
  const rows = inputs.filter((input) => input.event !== 'update' || Object.keys(input.changes).length > 0).map((input) => {
    const changes: ObjectChanges = {};
    for (const [field, [before, after]] of Object.entries(input.changes)) changes[field] = [normalise(before), normalise(after)];
    return {
      business_account_id: input.businessAccountId,
      item_type: input.itemType,
      item_id: input.itemId,
      event: input.event,
      whodunnit: input.whodunnit,
      object_changes: changes,
      reason: input.reason ?? null,
    };
  });
  await bulkInsert(tx, 'versions', {
    business_account_id: 'integer', item_type: 'text', item_id: 'integer', event: 'text', whodunnit: 'text', object_changes: 'jsonb', reason: 'text',
  }, rows);
  return rows.length;
}

/** The fields whose values differ between two states of a record (compared as JSON), as [before, after]. */
export function changesBetween<T extends object>(before: T, after: T): ObjectChanges {
  const changes: ObjectChanges = {};
  for (const field of Object.keys(after) as (keyof T & string)[]) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) changes[field] = [before[field], after[field]];
  }
  return changes;
}

/** An item's change log, oldest first. */
export async function versionsOf(db: DbOrTx, businessAccountId: number, itemType: VersionedItem, itemId: number) {
  return db.select().from(versions).where(and(
    eq(versions.business_account_id, businessAccountId),
    eq(versions.item_type, itemType),
    eq(versions.item_id, itemId),
  )).orderBy(asc(versions.created_at), asc(versions.id));
}

// ---- Reading: the change log as a coordinator reads it ----

/**
 * One changed field in words: `label` names it, `from`/`to` are display text (ids resolved to names), except for
 * kind 'instant' (ISO instants the reader shows in the practitioner's zone), 'position' (a map position moved; the
 * coordinates are left out) and 'sentence' (the label says the whole change: "Removed from the route of …", "Deleted").
 */
export interface VersionChange {
  field: string;
  label: string;
  kind: 'text' | 'instant' | 'position' | 'sentence';
  from: string | null;
  to: string | null;
}

type Reference = 'client' | 'practitioner' | 'appointmentType' | 'businessLocation' | 'tags' | 'route';

/** Fields in the order a coordinator reads them: who and what, when, then where; anything else after, by name. */
const FIELDS: ReadonlyArray<{ field: string; label: string; kind?: 'instant'; reference?: Reference }> = [
  { field: 'client_id', label: 'Client', reference: 'client' },
  { field: 'practitioner_id', label: 'Practitioner', reference: 'practitioner' },
  { field: 'appointment_type_id', label: 'Appointment type', reference: 'appointmentType' },
  { field: 'business_location_id', label: 'Business location', reference: 'businessLocation' },
  { field: 'starts_at', label: 'Starts', kind: 'instant' },
  { field: 'agreed_starts_at', label: 'Agreed time', kind: 'instant' },
  { field: 'arrive_at', label: 'Arrival time', kind: 'instant' },
  { field: 'route_id', label: 'Route', reference: 'route' },
  { field: 'arrival_locked', label: 'Keep this time' },
  { field: 'ends_at', label: 'Ends', kind: 'instant' },
  { field: 'cancelled_at', label: 'Cancelled', kind: 'instant' },
  { field: 'visit_state', label: 'Visit' },
  { field: 'name', label: 'Name' },
  { field: 'first_name', label: 'First name' },
  { field: 'last_name', label: 'Last name' },
  { field: 'dob', label: 'Date of birth' },
  { field: 'email', label: 'Email' },
  { field: 'role', label: 'Role' },
  { field: 'associated_practitioner_ids', label: 'Associated practitioners', reference: 'practitioner' },
  { field: 'status', label: 'Status' },
  { field: 'invitation_expires_at', label: 'Invitation link expires', kind: 'instant' },
  { field: 'phone_numbers', label: 'Phone numbers' },
  { field: 'tag_ids', label: 'Tags', reference: 'tags' },
  { field: 'availability', label: 'Availability' },
  { field: 'notes', label: 'Notes' },
  { field: 'address_1', label: 'Address' },
  { field: 'address_2', label: 'Address line 2' },
  { field: 'city', label: 'City' },
  { field: 'state', label: 'State' },
  { field: 'post_code', label: 'Post code' },
  { field: 'country', label: 'Country' },
  { field: 'time_zone', label: 'Time zone' },
  { field: 'color', label: 'Colour' },
  { field: 'start_place', label: 'Start place' },
  { field: 'end_place', label: 'End place' },
  { field: 'home', label: 'Home address' },
  { field: 'working_hours', label: 'Working hours' },
  { field: 'break', label: 'Break' },
  { field: 'skill_appointment_type_ids', label: 'Appointment types delivered', reference: 'appointmentType' },
  { field: 'max_visits', label: 'Most visits a day' },
  { field: 'max_travel_minutes', label: 'Most travel a day (minutes)' },
  { field: 'duration', label: 'Duration (minutes)' },
  { field: 'enable_auto_import', label: 'Automatic import' },
  { field: 'enable_auto_export', label: 'Automatic export' },
  { field: 'ahead_days', label: 'Days ahead' },
  { field: 'practitioner_ids', label: 'Practitioners', reference: 'practitioner' },
  { field: 'appointment_type_ids', label: 'Appointment types', reference: 'appointmentType' },
  { field: 'business_location_ids', label: 'Business locations', reference: 'businessLocation' },
  { field: 'contact_email', label: 'Contact email' },
  { field: 'contact_phone', label: 'Contact phone' },
  { field: 'map_center', label: 'Default map centre' },
  { field: 'week_start', label: 'Week starts on' },
  { field: 'reminder_hour', label: 'Reminder hour' },
  { field: 'reminders_enabled', label: 'Appointment reminders' },
  { field: 'eta_messages_enabled', label: 'ETA messages' },
  { field: 'arrival_far_metres', label: 'Arrival flagged beyond' },
  { field: 'overdue_after_minutes', label: 'Overdue after' },
  { field: 'eta_replan_minutes', label: 'Tell clients of a re-plan from' },
];
const KNOWN = new Map(FIELDS.map((entry, index) => [entry.field, { ...entry, index }]));
const POSITION_FIELDS = new Set(['lat', 'lng']);
const REMOVED: Record<Reference, string> = {
  client: 'a removed client', practitioner: 'a removed practitioner', appointmentType: 'a removed appointment type',
  businessLocation: 'a removed location', tags: 'a removed tag', route: 'a removed route',
};
const VISIT_STATE_WORDS: Record<string, string> = {
  not_started: 'Not started', on_my_way: 'On my way', arrived: 'Arrived', done: 'Done', could_not_attend: 'Could not attend',
};
const ROLE_WORDS: Record<string, string> = { ADMIN: 'Administrator', REGULAR_USER: 'Staff', PRACTITIONER: 'Practitioner' };
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Working hours are stored Monday first. */
const WEEK_FROM_MONDAY = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const idsIn = (value: unknown): number[] =>
  (Array.isArray(value) ? value : [value]).filter((id): id is number => typeof id === 'number' && Number.isInteger(id));

/** The names of every id the versions refer to, in one query per kind of record. */
async function namesOf(db: DbOrTx, businessAccountId: number, rows: readonly { object_changes: ObjectChanges }[]) {
  const wanted: Record<Reference, Set<number>> = {
    client: new Set(), practitioner: new Set(), appointmentType: new Set(), businessLocation: new Set(), tags: new Set(), route: new Set(),
  };
  for (const row of rows) {
    for (const [field, pair] of Object.entries(row.object_changes)) {
      const reference = KNOWN.get(field)?.reference;
      if (reference && Array.isArray(pair)) pair.flatMap(idsIn).forEach((id) => wanted[reference].add(id));
    }
  }
  const lookup = async (reference: Reference, query: (ids: number[]) => Promise<{ id: number; name: string }[]>) =>
    [reference, new Map(wanted[reference].size ? (await query([...wanted[reference]])).map((row) => [row.id, row.name.trim()]) : [])] as const;
  const person = (first: string, last: string) => `${first} ${last}`.trim();
  return Object.fromEntries(await Promise.all([
    lookup('client', async (ids) => (await db.select({ id: clients.id, first: clients.first_name, last: clients.last_name }).from(clients)
      .where(and(eq(clients.business_account_id, businessAccountId), inArray(clients.id, ids)))).map((row) => ({ id: row.id, name: person(row.first, row.last) }))),
    lookup('practitioner', async (ids) => (await db.select({ id: practitioners.id, first: practitioners.first_name, last: practitioners.last_name })
      .from(practitioners).where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, ids))))
      .map((row) => ({ id: row.id, name: person(row.first, row.last) }))),
    lookup('appointmentType', (ids) => db.select({ id: appointmentTypes.id, name: appointmentTypes.name }).from(appointmentTypes)
      .where(and(eq(appointmentTypes.business_account_id, businessAccountId), inArray(appointmentTypes.id, ids)))),
    lookup('businessLocation', (ids) => db.select({ id: businessLocations.id, name: businessLocations.name }).from(businessLocations)
      .where(and(eq(businessLocations.business_account_id, businessAccountId), inArray(businessLocations.id, ids)))),
    lookup('tags', (ids) => db.select({ id: tags.id, name: tags.name }).from(tags)
      .where(and(eq(tags.business_account_id, businessAccountId), inArray(tags.id, ids)))),
    // A route is named by its practitioner.
    lookup('route', async (ids) => (await db.select({ id: routes.id, first: practitioners.first_name, last: practitioners.last_name }).from(routes)
      .innerJoin(practitioners, eq(practitioners.id, routes.practitioner_id))
      .where(and(eq(routes.business_account_id, businessAccountId), inArray(routes.id, ids)))).map((row) => ({ id: row.id, name: person(row.first, row.last) }))),
  ])) as Record<Reference, Map<number, string>>;
}

function availabilityText(value: unknown[]): string {
  if (value.length === 0) return 'Any day and time';
  return value.map((entry) => {
    const { dow, hours } = (entry ?? {}) as { dow?: number; hours?: string[] };
    const day = DAY_NAMES[dow ?? -1] ?? 'Unknown day';
    return hours && hours.length ? `${day} ${hours.join(', ')}` : `${day} all day`;
  }).join('; ');
}

/** "Mon 08:00–16:30, …, Sun off" */
function workingHoursText(value: unknown[]): string {
  return value.map((day, index) => {
    const hours = day as { start?: string; end?: string } | null;
    return `${WEEK_FROM_MONDAY[index] ?? '?'} ${hours?.start && hours.end ? `${hours.start}–${hours.end}` : 'off'}`;
  }).join(', ');
}

/** The text of a practitioner's field whose value is an object, or undefined for any other field. */
function practitionerValueText(field: string, value: object): string | undefined {
  if (field === 'start_place' || field === 'end_place') return String((value as { name?: unknown }).name ?? '');
  if (field === 'home') return String((value as { address?: unknown }).address ?? '');
  if (field === 'break') {
    const { earliest, latest, minutes } = value as { earliest?: string; latest?: string; minutes?: number };
    return `${minutes} min, starting ${earliest === latest ? `at ${earliest}` : `between ${earliest} and ${latest}`}`;
  }
  return undefined;
}

function valueText(field: string, value: unknown, names: Record<Reference, Map<number, string>>): string | null {
  // Not narrowed in Rounds: every type the PMS lists for them (issue 35), never every type of the business.
  if (field === 'skill_appointment_type_ids' && value === null) return 'Every type Cliniko lists';
  if (value === null || value === undefined || value === '') return null;
  const reference = KNOWN.get(field)?.reference;
  if (reference) {
    const list = idsIn(value).map((id) => names[reference].get(id) ?? REMOVED[reference]);
    if (!list.length && field === 'skill_appointment_type_ids') return 'None';
    // The sync settings' filters: none chosen means all.
    if (!list.length && field.endsWith('_ids') && field !== 'tag_ids' && field !== 'associated_practitioner_ids') return 'All';
    return list.length ? list.join(', ') : null;
  }
  if (field === 'availability' && Array.isArray(value)) return availabilityText(value);
  if (field === 'role' && typeof value === 'string') return ROLE_WORDS[value] ?? value;
  if (field === 'visit_state' && typeof value === 'string') return VISIT_STATE_WORDS[value] ?? value;
  if (field === 'status' && typeof value === 'string') return value.charAt(0).toUpperCase() + value.slice(1);
  if (field === 'working_hours' && Array.isArray(value)) return workingHoursText(value);
  if (typeof value === 'object' && !Array.isArray(value)) {
    const text = practitionerValueText(field, value);
    if (text !== undefined) return text;
  }
  if (field === 'phone_numbers' && Array.isArray(value)) {
    const numbers = value.map((phone) => (phone as { number?: unknown })?.number).filter((number) => typeof number === 'string');
    return numbers.length ? numbers.join(', ') : null;
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const labelOf = (field: string) => {
  const words = field.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A visit joining or leaving a route, in words: the route is named by its practitioner (the visit's practitioner of
 * that side of the change when the route has since been removed); its id means nothing to a reader.
 */
function routeChange(objectChanges: ObjectChanges, names: Record<Reference, Map<number, string>>): VersionChange {
  const [from, to] = objectChanges.route_id;
  const [practitionerBefore, practitionerAfter] = objectChanges.practitioner_id ?? [];
  const routeOf = (routeId: unknown, practitionerId: unknown) => {
    const name = (typeof routeId === 'number' && names.route.get(routeId))
      || (typeof practitionerId === 'number' && names.practitioner.get(practitionerId));
    return name ? `the route of ${name}` : 'a route';
  };
  const label = from === null || from === undefined ? `Added to ${routeOf(to, practitionerAfter)}`
    : to === null || to === undefined ? `Removed from ${routeOf(from, practitionerBefore)}`
      : `Moved from ${routeOf(from, practitionerBefore)} to ${routeOf(to, practitionerAfter)}`;
  return { field: 'route_id', label, kind: 'sentence', from: null, to: null };
}

/**
 * One version's changes in words and in a fixed order, map coordinates folded into one "map position" change; a
 * record deleted is said so, not as each of its fields becoming empty.
 */
function describe(objectChanges: ObjectChanges, names: Record<Reference, Map<number, string>>, event?: string): VersionChange[] {
  if (event === 'destroy') return [{ field: 'event', label: 'Deleted', kind: 'sentence', from: null, to: null }];
  const fields = Object.keys(objectChanges).filter((field) => !POSITION_FIELDS.has(field)).sort((a, b) => {
    const [left, right] = [KNOWN.get(a)?.index ?? FIELDS.length, KNOWN.get(b)?.index ?? FIELDS.length];
    return left - right || a.localeCompare(b);
  });
  const changes: VersionChange[] = fields.map((field) => {
    const [from, to] = Array.isArray(objectChanges[field]) ? objectChanges[field] : [null, null];
    const known = KNOWN.get(field);
    if (field === 'route_id') return routeChange(objectChanges, names);
    // A client's ETA message (the reminders module) or a practitioner's step the server refused: the outcome is the whole sentence.
    if (field === 'eta_message' || field === 'step_not_recorded') return { field, label: String(to ?? field), kind: 'sentence', from: null, to: null };
    // A done visit's note written after Done: the entry's reason quotes it ("note: …").
    if (field === 'visit_note') return { field, label: from === null ? 'Note added after Done' : to === null ? 'Note removed' : 'Note changed', kind: 'sentence', from: null, to: null };
    if (known?.kind === 'instant') {
      return { field, label: known.label, kind: 'instant', from: typeof from === 'string' ? from : null, to: typeof to === 'string' ? to : null };
    }
    return { field, label: known?.label ?? labelOf(field), kind: 'text', from: valueText(field, from, names), to: valueText(field, to, names) };
  });
  if (Object.keys(objectChanges).some((field) => POSITION_FIELDS.has(field))) {
    changes.push({ field: 'position', label: 'Map position', kind: 'position', from: null, to: null });
  }
  return changes;
}

/** Each version's changes in words (see VersionChange), in the order of `rows`; one name lookup per kind of record. */
export async function describeVersions(
  db: DbOrTx, businessAccountId: number, rows: readonly { object_changes: ObjectChanges; event?: string }[],
): Promise<VersionChange[][]> {
  if (rows.length === 0) return [];
  const names = await namesOf(db, businessAccountId, rows);
  return rows.map((row) => describe(row.object_changes, names, row.event));
}
