// Drizzle table of the appointment reminders (migration 0063_reminders.sql is the source of truth).
import { bigserial, date, integer, pgTable, primaryKey, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { businessAccounts, clients } from './schema';

const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export type ReminderChannel = 'email' | 'sms';
export type SentReminderStatus = 'PENDING' | 'SENDING' | 'SENT' | 'FAILED' | 'SKIPPED';

export const sentReminders = pgTable('sent_reminders', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  client_id: integer('client_id').notNull().references(() => clients.id),
  visit_date: date('visit_date', { mode: 'string' }).notNull(),
  channel: text('channel').$type<ReminderChannel>().notNull(),
  status: text('status').$type<SentReminderStatus>().notNull().default('PENDING'),
  attempts: integer('attempts').notNull().default(0),
  run_after: tstz('run_after').notNull().defaultNow(),
  locked_by: text('locked_by'),
  locked_until: tstz('locked_until'),
  last_error: text('last_error'),
  sent_at: tstz('sent_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
  updated_at: tstz('updated_at').notNull().defaultNow(),
}, (t) => [unique('sent_reminders_once_key').on(t.client_id, t.visit_date, t.channel)]);

export const reminderRuns = pgTable('reminder_runs', {
  business_account_id: integer('business_account_id').notNull().references(() => businessAccounts.id),
  visit_date: date('visit_date', { mode: 'string' }).notNull(),
  due_at: tstz('due_at').notNull(),
  enumerated_at: tstz('enumerated_at'),
  created_at: tstz('created_at').notNull().defaultNow(),
}, (t) => [primaryKey({ columns: [t.business_account_id, t.visit_date] })]);
