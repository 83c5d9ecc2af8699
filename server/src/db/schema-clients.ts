// Drizzle tables of the clients area added by migration 0010_clients_lists.sql (the migration is the source of truth).
import { integer, jsonb, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { businessAccounts, clients, practitioners, users, type AvailabilityEntry } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const clientAvailabilityRequests = pgTable('client_availability_requests', {
  id: serial('id').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  token_hash: text('token_hash').notNull(),
  email: text('email').notNull(),
  requested_by_user_id: integer('requested_by_user_id').references(() => users.id),
  expires_at: tstz('expires_at').notNull(),
  used_at: tstz('used_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
});

/** A client's availability before the business day it was changed on (migration 0073). */
export const clientPastAvailabilities = pgTable('client_past_availabilities', {
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  valid_until: tstz('valid_until').notNull(),
  availability: jsonb('availability').$type<AvailabilityEntry[]>().notNull(),
}, (t) => [primaryKey({ columns: [t.client_id, t.valid_until] })]);

export type PractitionerPreferenceKind = 'preferred' | 'excluded';

/** A client's preferred and excluded practitioners, one row per practitioner (migration 0081). */
export const clientPractitionerPreferences = pgTable('client_practitioner_preferences', {
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id, { onDelete: 'cascade' }),
  practitioner_id: integer('practitioner_id').notNull().references(() => practitioners.id, { onDelete: 'cascade' }),
  kind: text('kind').$type<PractitionerPreferenceKind>().notNull(),
}, (t) => [primaryKey({ columns: [t.client_id, t.practitioner_id] })]);
