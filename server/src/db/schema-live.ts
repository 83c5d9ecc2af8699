// Drizzle table of the live desk's stream tickets (migration 0097b_live_tickets.sql is the source of truth).
import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { businessAccounts, users } from './schema';

export const liveTickets = pgTable('live_tickets', {
  token_hash: text('token_hash').primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id, { onDelete: 'cascade' }),
  user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** null: every practitioner of the business (staff); else only these (a PRACTITIONER's own). */
  practitioner_ids: integer('practitioner_ids').array(),
  expires_at: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
});
