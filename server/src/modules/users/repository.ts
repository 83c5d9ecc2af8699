import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { businessAccounts, users } from '../../db/schema';
import type { Schemas } from '../../http/contract';
import { mapCenterOf } from '../business-account';

export type UserRow = typeof users.$inferSelect;
export type BusinessAccountRow = typeof businessAccounts.$inferSelect;
export interface UserWithBusiness { user: UserRow; business: BusinessAccountRow }

const withBusiness = (db: Db) =>
  db.select({ user: users, business: businessAccounts }).from(users)
    .innerJoin(businessAccounts, eq(businessAccounts.id, users.business_account_id));

export async function findUserByEmail(db: Db, email: string): Promise<UserWithBusiness | undefined> {
  const [row] = await withBusiness(db).where(sql`lower(${users.email}) = lower(${email.trim()})`);
  return row;
}

export async function findUserById(db: Db, id: number): Promise<UserWithBusiness | undefined> {
  const [row] = await withBusiness(db).where(eq(users.id, id));
  return row;
}

/** Changes a user's row (users are created by accounts/service.ts createUser through insertUser). */
export async function updateUser(db: DbOrTx, id: number, changes: Partial<Pick<UserRow, 'first_name' | 'last_name' | 'email' | 'password_hash'>>): Promise<void> {
  await db.update(users).set({ ...changes, updated_at: sql`now()` }).where(eq(users.id, id));
}

export async function insertUser(db: DbOrTx, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row;
}

export const fullName = (user: Pick<UserRow, 'first_name' | 'last_name'>) => `${user.first_name} ${user.last_name}`.trim();

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
    },
  };
}
