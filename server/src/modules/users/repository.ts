import { and, asc, eq, gt, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { databaseErrorCode, UNIQUE_VIOLATION } from '../../db/errors';
import { businessAccounts, oneTimeTokens, practitioners, users, type Role } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import { normalEmail } from '../../lib/email-address';
import { mapCenterOf } from '../../lib/map-center';

export type UserRow = typeof users.$inferSelect;
export type BusinessAccountRow = typeof businessAccounts.$inferSelect;
export interface UserWithBusiness { user: UserRow; business: BusinessAccountRow }
export type UserStatus = Schemas['UserStatus'];

const withBusiness = (db: Db) =>
  db.select({ user: users, business: businessAccounts }).from(users)
    .innerJoin(businessAccounts, eq(businessAccounts.id, users.business_account_id));

/** Emails are stored in their normal form (migration 0095) and compared by equality, never lower(). */
const sameEmail = (email: string) => eq(users.email, normalEmail(email));

/** Every user with this email, in every business (one person may work for several), the oldest business first. */
export async function findUsersByEmail(db: Db, email: string): Promise<UserWithBusiness[]> {
  return withBusiness(db).where(sameEmail(email)).orderBy(asc(users.business_account_id));
}

/** The business's users with this email, however written (unique within a business among active users only): the first. */
export async function findBusinessUserByEmail(db: DbOrTx, businessAccountId: number, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(and(eq(users.business_account_id, businessAccountId), sameEmail(email)));
  return row;
}

/** Another active user of the business with this email: a deactivated user with it cannot be reactivated meanwhile. */
export async function findOtherActiveUserByEmail(db: DbOrTx, businessAccountId: number, email: string, exceptId: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users)
    .where(and(eq(users.business_account_id, businessAccountId), sameEmail(email), eq(users.active, true), ne(users.id, exceptId)));
  return row;
}

/** Whether a write failed because the business already has a user with that email (two writes racing past the check). */
export const isDuplicateEmail = (error: unknown) => databaseErrorCode(error) === UNIQUE_VIOLATION;

export async function findUserById(db: Db, id: number): Promise<UserWithBusiness | undefined> {
  const [row] = await withBusiness(db).where(eq(users.id, id));
  return row;
}

/** Changes a user's row (users are created by accounts/service.ts createUser and the users service through insertUser). */
export async function updateUser(db: DbOrTx, id: number, changes: Partial<Pick<UserRow,
  'first_name' | 'last_name' | 'email' | 'password_hash' | 'role' | 'associated_practitioner_ids' | 'active'>>): Promise<void> {
  const email = changes.email === undefined ? {} : { email: normalEmail(changes.email) };
  await db.update(users).set({ ...changes, ...email, updated_at: sql`now()` }).where(eq(users.id, id));
}

export async function recordLogin(db: DbOrTx, id: number): Promise<void> {
  await db.update(users).set({ last_login_at: sql`now()` }).where(eq(users.id, id));
}

export async function insertUser(db: DbOrTx, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values({ ...user, email: normalEmail(user.email) }).returning();
  return row;
}

/** A user of the business (locked for update when asked), or undefined for another business's or a missing id. */
export async function findBusinessUser(db: DbOrTx, businessAccountId: number, id: number, lock?: 'update'): Promise<UserRow | undefined> {
  const query = db.select().from(users).where(and(eq(users.business_account_id, businessAccountId), eq(users.id, id)));
  const [row] = lock ? await query.for(lock) : await query;
  return row;
}

export async function listBusinessUsers(db: DbOrTx, businessAccountId: number): Promise<UserRow[]> {
  return db.select().from(users).where(eq(users.business_account_id, businessAccountId))
    .orderBy(asc(sql`lower(${users.first_name} || ' ' || ${users.last_name})`), asc(users.id));
}

/**
 * Locks the business's administrators' rows in id order. A change that may take an administrator away calls it before
 * locking anything else, so that two such changes wait for each other instead of each holding the row the other
 * needs (two administrators demoting each other at once would deadlock).
 */
export async function lockAdmins(tx: DbOrTx, businessAccountId: number): Promise<void> {
  await tx.select({ id: users.id }).from(users)
    .where(and(eq(users.business_account_id, businessAccountId), eq(users.role, 'ADMIN' satisfies Role)))
    .orderBy(asc(users.id)).for('update');
}

/**
 * The business's active administrators who can log in (invited ones cannot), other than `exceptId`; their rows are
 * locked so two administrators demoting or deactivating each other at once cannot both succeed.
 */
export async function lockOtherActiveAdmins(tx: DbOrTx, businessAccountId: number, exceptId: number): Promise<number[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(and(
    eq(users.business_account_id, businessAccountId), eq(users.role, 'ADMIN' satisfies Role), eq(users.active, true),
    isNotNull(users.password_hash), ne(users.id, exceptId),
  )).for('update');
  return rows.map((row) => row.id);
}

/** Which of `ids` are practitioners of the business. */
export async function practitionerNames(db: DbOrTx, businessAccountId: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ id: practitioners.id, first: practitioners.first_name, last: practitioners.last_name }).from(practitioners)
    .where(and(eq(practitioners.business_account_id, businessAccountId), inArray(practitioners.id, [...ids])));
  return new Map(rows.map((row) => [row.id, `${row.first} ${row.last}`.trim()]));
}

/** When each user's latest usable invitation link expires. */
export async function invitationExpiries(db: DbOrTx, userIds: readonly number[]): Promise<Map<number, Date>> {
  if (!userIds.length) return new Map();
  const rows = await db.select({ userId: oneTimeTokens.user_id, expiresAt: sql<Date | string>`max(${oneTimeTokens.expires_at})` })
    .from(oneTimeTokens)
    .where(and(inArray(oneTimeTokens.user_id, [...userIds]), eq(oneTimeTokens.purpose, 'INVITATION'), isNull(oneTimeTokens.used_at),
      gt(oneTimeTokens.expires_at, sql`now()`)))
    .groupBy(oneTimeTokens.user_id);
  return new Map(rows.map((row) => [row.userId, new Date(row.expiresAt)]));
}

export const fullName = (user: Pick<UserRow, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

export function statusOf(user: Pick<UserRow, 'active' | 'password_hash'>): UserStatus {
  if (!user.active) return 'deactivated';
  return user.password_hash === null ? 'invited' : 'active';
}

export function toUserDto({ user, business }: UserWithBusiness): Schemas['User'] {
  return {
    id: user.id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: fullName(user),
    role: user.role,
    associated_practitioner_ids: user.associated_practitioner_ids,
    business_account: {
      id: business.id, name: business.name, time_zone: business.time_zone, map_center: mapCenterOf(business), week_start: business.week_start,
      overdue_after_minutes: business.overdue_after_minutes,
      eta_messages_enabled: business.eta_messages_enabled,
      eta_replan_minutes: business.eta_replan_minutes,
    },
  };
}
