// Drizzle table definitions mirroring the SQL migrations in ./migrations (the migrations are the source of truth).
import {
  bigint, bigserial, boolean, date, doublePrecision, integer, jsonb, pgTable, primaryKey, serial, smallint, text, time, timestamp,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const timestamps = {
  created_at: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
};
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const tenant = () => integer('business_account_id').notNull().references(() => businessAccounts.id);

export type Role = 'ADMIN' | 'REGULAR_USER' | 'PRACTITIONER';
export type ProviderAccountStatus = 'ACTIVE' | 'INITIALIZING' | 'DISCONNECTED' | 'CONNECTION_ERROR';
export interface AvailabilityEntry { dow: number; hours?: string[] }
export interface PhoneNumber { number: string; phone_type?: string | null }
export type PlaceKind = 'home' | 'business_location' | 'custom_location';
/** How precise a stored point is (migration 0051); 'none' = no point. */
export type GeoPrecision = 'address' | 'street' | 'suburb' | 'none';
/** Where a stored point came from (migration 0051); null without a point. */
export type GeoSource = 'google' | 'nominatim' | 'gazetteer' | 'sandbox' | 'pms' | 'manual';
export interface WorkingHours { start: string; end: string }
export type OptimizationPreset = 'shortest_travel' | 'balanced' | 'punctual' | 'continuity' | 'custom';
/** A route's start or end place; geo_precision says how precise the point is (routes applied before it was kept lack it). */
export interface Place { kind: PlaceKind; id: number | null; name: string; lat: number; lng: number; geo_precision?: Exclude<GeoPrecision, 'none'> }
/**
 * arrive_at: the start of the visit (the time told to the client); reach_at: when the practitioner gets there
 * (earlier when they wait); depart_at: when they leave (visit and buffer done). The optional fields are written by
 * the optimiser's apply.
 */
export interface RouteStop {
  appointment_id: number; arrive_at: string; travel_seconds: number; travel_metres: number;
  reach_at?: string; depart_at?: string; waiting_seconds?: number; lateness_seconds?: number;
}
export interface RouteLeg { travel_seconds: number; travel_metres: number }
/** A route's break: taken from start_at to end_at, after that visit (null: before the first). */
export interface RouteBreak { start_at: string; end_at: string; after_appointment_id: number | null }
export interface RouteMetrics {
  travel_seconds: number; travel_metres: number; idle_seconds: number; overtime_seconds: number; late_visits: number;
  /** When the practitioner leaves the start place and reaches the end place. */
  depart_at?: string; end_at?: string; break?: RouteBreak | null;
}
export interface SyncFilters { practitioner_ids: number[]; appointment_type_ids: number[]; business_location_ids: number[] }

export const businessAccounts = pgTable('business_accounts', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  time_zone: text('time_zone').notNull().default('Australia/Brisbane'),
  active: boolean('active').notNull().default(true),
  contact_email: text('contact_email').notNull().default(''),
  contact_phone: text('contact_phone').notNull().default(''),
  /** NULL: the spec's default centre (Brisbane). */
  map_center_lat: doublePrecision('map_center_lat'),
  map_center_lng: doublePrecision('map_center_lng'),
  /** 0 = Sunday … 6 = Saturday. */
  week_start: smallint('week_start').notNull().default(1),
  /** Hour (0–23, business time zone) of the daily appointment reminder to clients. */
  reminder_hour: smallint('reminder_hour').notNull().default(2),
  reminders_enabled: boolean('reminders_enabled').notNull().default(true),
  /** The client is told about when the practitioner will arrive when they tap On my way (migration 0089). */
  eta_messages_enabled: boolean('eta_messages_enabled').notNull().default(true),
  /** An arrival further than this from the client's point is flagged (migration 0087). */
  arrival_far_metres: integer('arrival_far_metres').notNull().default(300),
  /** A visit this many minutes past its planned start with no check-in is overdue (migration 0088, server/src/lib/overdue.ts). */
  overdue_after_minutes: integer('overdue_after_minutes').notNull().default(15),
  /** Apply may tell clients whose arrival a re-plan moves by at least this many minutes (migration 0090, server/src/lib/arrival-changes.ts). */
  eta_replan_minutes: integer('eta_replan_minutes').notNull().default(15),
  care_plan_weeks_ahead: integer('care_plan_weeks_ahead').notNull().default(4),
  /** Moved by triggers whenever anything the appointments or clients lists show changes (migration 0030). */
  lists_version: bigint('lists_version', { mode: 'number' }).notNull().default(0),
  created_at: timestamps.created_at,
});

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  /** In its normal form (lib/email-address.ts normalEmail, migration 0095); unique among the business's active users. */
  email: text('email').notNull(),
  /** NULL while the user is invited: they choose a password when they accept (migration 0061). */
  password_hash: text('password_hash'),
  first_name: text('first_name').notNull(),
  last_name: text('last_name').notNull().default(''),
  role: text('role').$type<Role>().notNull(),
  associated_practitioner_ids: integer('associated_practitioner_ids').array().notNull().default([]),
  active: boolean('active').notNull().default(true),
  last_login_at: tstz('last_login_at'),
  ...timestamps,
});

export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id),
  token_hash: text('token_hash').notNull(),
  expires_at: tstz('expires_at').notNull(),
  revoked_at: tstz('revoked_at'),
  created_at: timestamps.created_at,
});

export const oneTimeTokens = pgTable('one_time_tokens', {
  id: serial('id').primaryKey(),
  user_id: integer('user_id').notNull().references(() => users.id),
  purpose: text('purpose').$type<'PASSWORD_RESET' | 'LOGIN_AS' | 'INVITATION'>().notNull(),
  token_hash: text('token_hash').notNull(),
  expires_at: tstz('expires_at').notNull(),
  used_at: tstz('used_at'),
  created_at: timestamps.created_at,
});

export const outboxEmails = pgTable('outbox_emails', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id'),
  to_address: text('to_address').notNull(),
  subject: text('subject').notNull(),
  text_body: text('text_body').notNull(),
  html_body: text('html_body'),
  /** The From and Reply-To headers the email went with (migration 0073). */
  from_address: text('from_address'),
  reply_to: text('reply_to'),
  sent_at: tstz('sent_at'),
  created_at: timestamps.created_at,
});

export const providerAccounts = pgTable('provider_accounts', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  provider: text('provider').$type<'cliniko'>().notNull().default('cliniko'),
  status: text('status').$type<ProviderAccountStatus>().notNull(),
  api_key_encrypted: text('api_key_encrypted'),
  api_key_last4: text('api_key_last4'),
  last_error: text('last_error'),
  connected_at: tstz('connected_at'),
  ...timestamps,
});

export const syncSettings = pgTable('sync_settings', {
  business_account_id: integer('business_account_id').primaryKey().references(() => businessAccounts.id),
  enable_auto_import: boolean('enable_auto_import').notNull().default(false),
  enable_auto_export: boolean('enable_auto_export').notNull().default(false),
  ahead_days: integer('ahead_days').notNull().default(7),
  filters: jsonb('filters').$type<SyncFilters>().notNull(),
  updated_at: timestamps.updated_at,
});

const address = {
  address_1: text('address_1'),
  address_2: text('address_2'),
  city: text('city'),
  state: text('state'),
  post_code: text('post_code'),
  country: text('country'),
};

export const businessLocations = pgTable('business_locations', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  name: text('name').notNull(),
  ...address,
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  geo_precision: text('geo_precision').$type<GeoPrecision>().notNull().default('none'),
  geo_source: text('geo_source').$type<GeoSource>(),
  ...timestamps,
});

export const practitioners = pgTable('practitioners', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  first_name: text('first_name').notNull(),
  last_name: text('last_name').notNull().default(''),
  profession: text('profession'),
  active: boolean('active').notNull().default(true),
  time_zone: text('time_zone').notNull().default('Australia/Brisbane'),
  /** '#rrggbb' chosen by an admin; null: derived (migration 0042's practitioner_color() shows either). */
  color: text('color'),
  email: text('email'),
  home_address: text('home_address'),
  home_lat: doublePrecision('home_lat'),
  home_lng: doublePrecision('home_lng'),
  home_geo_precision: text('home_geo_precision').$type<GeoPrecision>().notNull().default('none'),
  home_geo_source: text('home_geo_source').$type<GeoSource>(),
  start_place_kind: text('start_place_kind').$type<PlaceKind>(),
  start_business_location_id: integer('start_business_location_id'),
  start_custom_location_id: integer('start_custom_location_id'),
  /** null: the end place is the start place. */
  end_place_kind: text('end_place_kind').$type<PlaceKind>(),
  end_business_location_id: integer('end_business_location_id'),
  end_custom_location_id: integer('end_custom_location_id'),
  /** Monday first; null = off. */
  working_hours: jsonb('working_hours').$type<(WorkingHours | null)[]>().notNull().default([null, null, null, null, null, null, null]),
  break_earliest: time('break_earliest'),
  break_latest: time('break_latest'),
  break_minutes: integer('break_minutes'),
  /**
   * The administrator's narrowing of the PMS's list (null = not narrowed); without a PMS list, the qualifications on
   * their own. See effectiveQualifications (practitioners module).
   */
  skill_appointment_type_ids: integer('skill_appointment_type_ids').array(),
  /** The appointment types the PMS lists for the practitioner, as local ids (every import); null = never read. */
  pms_appointment_type_ids: integer('pms_appointment_type_ids').array(),
  max_visits: integer('max_visits'),
  max_travel_minutes: integer('max_travel_minutes'),
  ...timestamps,
});

export const customLocations = pgTable('custom_locations', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  name: text('name').notNull(),
  address: text('address').notNull().default(''),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  geo_precision: text('geo_precision').$type<Exclude<GeoPrecision, 'none'>>().notNull().default('address'),
  geo_source: text('geo_source').$type<GeoSource>().notNull().default('manual'),
  ...timestamps,
});

export const optimizationSettings = pgTable('optimization_settings', {
  business_account_id: integer('business_account_id').primaryKey().references(() => businessAccounts.id),
  availability_mode: text('availability_mode').$type<'hard' | 'soft'>().notNull().default('hard'),
  max_lateness_minutes: integer('max_lateness_minutes').notNull().default(30),
  overtime_minutes: integer('overtime_minutes').notNull().default(0),
  visit_buffer_minutes: integer('visit_buffer_minutes').notNull().default(0),
  arrival_rounding_minutes: integer('arrival_rounding_minutes').notNull().default(5),
  preset: text('preset').$type<OptimizationPreset>().notNull().default('balanced'),
  weight_travel_time: doublePrecision('weight_travel_time').notNull().default(1),
  weight_distance: doublePrecision('weight_distance').notNull().default(0),
  weight_continuity: doublePrecision('weight_continuity').notNull().default(0.25),
  weight_lateness: doublePrecision('weight_lateness').notNull().default(0.5),
  weight_overtime: doublePrecision('weight_overtime').notNull().default(1),
  search_seconds: integer('search_seconds').notNull().default(10),
  allow_reassignment: boolean('allow_reassignment').notNull().default(true),
  fixed_before_minutes: integer('fixed_before_minutes').notNull().default(30),
  tolerance_minutes: integer('tolerance_minutes').notNull().default(30),
  client_gap_minutes: integer('client_gap_minutes').notNull().default(60),
  /** Balance the day between practitioners (migration 0082), at balance_weight per hour² of each working day. */
  balance_workload: boolean('balance_workload').notNull().default(false),
  balance_weight: doublePrecision('balance_weight').notNull().default(10),
  /** A day a practitioner had nothing booked is opened only at this many visits, or call_in_min_minutes of work (migration 0100). */
  call_in_min_visits: integer('call_in_min_visits').notNull().default(3),
  call_in_min_minutes: integer('call_in_min_minutes').notNull().default(180),
  /** Per minute a visit starts away from its agreed time, on the weights' scale (migration 0099). */
  move_price: doublePrecision('move_price').notNull().default(0.25),
  updated_at: tstz('updated_at').notNull().defaultNow(),
});

export const appointmentTypes = pgTable('appointment_types', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  name: text('name').notNull(),
  duration: integer('duration').notNull(),
  color: text('color'),
  /** Overrides the business's tolerance_minutes for visits of this type (migration 0079); null = the business's. */
  tolerance_minutes: integer('tolerance_minutes'),
  /** Least gap after the client's previous visit of this same type, minutes; null = only the business's client gap. */
  same_type_gap_minutes: integer('same_type_gap_minutes'),
  /** Visits of this type need two practitioners at once (migration 0085). */
  needs_two_practitioners: boolean('needs_two_practitioners').notNull().default(false),
  /** Overrides the business's move_price for visits of this type (migration 0099); null = the business's. */
  move_price: doublePrecision('move_price'),
  ...timestamps,
});

export const clients = pgTable('clients', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  first_name: text('first_name').notNull(),
  last_name: text('last_name').notNull().default(''),
  dob: date('dob', { mode: 'string' }),
  email: text('email'),
  phone_numbers: jsonb('phone_numbers').$type<PhoneNumber[]>().notNull().default([]),
  ...address,
  time_zone: text('time_zone'),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  geo_precision: text('geo_precision').$type<GeoPrecision>().notNull().default('none'),
  geo_source: text('geo_source').$type<GeoSource>(),
  /** A user corrected the pin: imports keep it while the address stays the same. */
  geo_manual: boolean('geo_manual').notNull().default(false),
  availability: jsonb('availability').$type<AvailabilityEntry[]>().notNull().default([]),
  /** The client gets the daily appointment reminders (migration 0063); turned off in the client modal or by the email's link. */
  reminders_enabled: boolean('reminders_enabled').notNull().default(true),
  ...timestamps,
});

/** What an online geocoder answered for a normalised address, per business (precision 'none': nothing found). */
export const geocodeCache = pgTable('geocode_cache', {
  business_account_id: tenant(),
  source: text('source').$type<'google' | 'nominatim'>().notNull(),
  address_key: text('address_key').notNull(),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  precision: text('precision').$type<GeoPrecision>().notNull(),
  label: text('label'),
  created_at: timestamps.created_at,
}, (t) => [primaryKey({ columns: [t.business_account_id, t.source, t.address_key] })]);

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  name: text('name').notNull(),
  color: text('color'),
  created_at: timestamps.created_at,
});

export const clientTags = pgTable('client_tags', {
  client_id: integer('client_id').notNull().references(() => clients.id),
  tag_id: integer('tag_id').notNull().references(() => tags.id),
}, (t) => [primaryKey({ columns: [t.client_id, t.tag_id] })]);

export const appointments = pgTable('appointments', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  client_id: integer('client_id').references(() => clients.id),
  practitioner_id: integer('practitioner_id').notNull().references(() => practitioners.id),
  appointment_type_id: integer('appointment_type_id').references(() => appointmentTypes.id),
  business_location_id: integer('business_location_id').references(() => businessLocations.id),
  starts_at: tstz('starts_at').notNull(),
  ends_at: tstz('ends_at').notNull(),
  arrive_at: tstz('arrive_at'),
  /**
   * The client's agreed start (migration 0099, ADR 0023): the tolerance is measured from it. An insert that leaves it
   * out agrees to its starts_at (a trigger fills it); only a change on purpose moves it, never an export.
   */
  agreed_starts_at: tstz('agreed_starts_at').notNull().default(sql`NULL`),
  route_id: integer('route_id'),
  /** "Keep this time": the optimiser keeps this visit's arrival. */
  arrival_locked: boolean('arrival_locked').notNull().default(false),
  notes: text('notes'),
  ...address,
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  cancelled_at: tstz('cancelled_at'),
  /** Where the visit is now (migration 0087): not_started, on_my_way, arrived, done or could_not_attend. */
  visit_state: text('visit_state').$type<'not_started' | 'on_my_way' | 'arrived' | 'done' | 'could_not_attend'>().notNull().default('not_started'),
  ...timestamps,
});

export const versions = pgTable('versions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: tenant(),
  item_type: text('item_type').notNull(),
  item_id: integer('item_id').notNull(),
  event: text('event').notNull(),
  whodunnit: text('whodunnit'),
  object_changes: jsonb('object_changes').$type<Record<string, [unknown, unknown]>>().notNull(),
  /** Why the change was made when the change does not say it (migration 0041), e.g. an import replacing a local time. */
  reason: text('reason'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

export const resourceMaps = pgTable('resource_maps', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  resource_type: text('resource_type').notNull(),
  resource_id: integer('resource_id').notNull(),
  external_id: text('external_id').notNull(),
  external_object_synced_at: tstz('external_object_synced_at'),
  external_updated_at: tstz('external_updated_at'),
});

/** A practitioner's applied route for one day (migration 0050 describes the JSON shapes). */
export const routes = pgTable('routes', {
  id: serial('id').primaryKey(),
  business_account_id: tenant(),
  practitioner_id: integer('practitioner_id').notNull().references(() => practitioners.id),
  day: date('day', { mode: 'string' }).notNull(),
  start_place: jsonb('start_place').$type<Place>(),
  end_place: jsonb('end_place').$type<Place>(),
  stops: jsonb('stops').$type<RouteStop[]>().notNull(),
  return_leg: jsonb('return_leg').$type<RouteLeg>(),
  metrics: jsonb('metrics').$type<RouteMetrics>().notNull(),
  optimization_job_id: integer('optimization_job_id'),
  applied_by_user_id: integer('applied_by_user_id').references(() => users.id),
  applied_by_name: text('applied_by_name'),
  applied_at: tstz('applied_at').notNull().defaultNow(),
  stale_at: tstz('stale_at'),
});

export type SubscriptionPlan = 'trial' | 'standard';
export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'cancelled';

/** One per business (migration 0062); none yet = a trial counted from the business's creation. */
export const subscriptions = pgTable('subscriptions', {
  business_account_id: integer('business_account_id').primaryKey().references(() => businessAccounts.id),
  plan: text('plan').$type<SubscriptionPlan>().notNull().default('trial'),
  status: text('status').$type<SubscriptionStatus>().notNull().default('trialing'),
  trial_ends_at: tstz('trial_ends_at'),
  past_due_since: tstz('past_due_since'),
  payment_method_on_file: boolean('payment_method_on_file').notNull().default(false),
  stripe_customer_id: text('stripe_customer_id'),
  stripe_subscription_id: text('stripe_subscription_id'),
  last_event_at: tstz('last_event_at'),
  updated_at: timestamps.updated_at,
});

export const billingEvents = pgTable('billing_events', {
  provider: text('provider').notNull(),
  event_id: text('event_id').notNull(),
  event_type: text('event_type').notNull(),
  business_account_id: integer('business_account_id').references(() => businessAccounts.id),
  created_at: timestamps.created_at,
}, (table) => [primaryKey({ columns: [table.provider, table.event_id] })]);
