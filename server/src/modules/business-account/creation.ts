// Creating a business account with its first administrator, and users of a business: used by the operator CLI, the
// demo seed, benchmarks and tests. Users are written by the users module, sync settings by the sync module.
import { hashPassword, passwordProblem } from '../../auth/passwords';
import type { Db } from '../../db/client';
import type { Role } from '../../db/schema';
import { findBusinessUserByEmail, findUsersByEmail, insertUser, type UserWithBusiness } from '../users';
import { createSyncSettings } from '../sync';
import { canonicalTimeZone } from '../../lib/time-zone';
import { normalEmail } from '../../lib/email-address';
import { insertBusinessAccount, practitionerIdsOfBusiness } from './repository';

export interface NewUser {
  businessAccountId: number;
  email: string;
  password: string;
  first_name: string;
  last_name?: string;
  role: Role;
  associated_practitioner_ids?: number[];
}

export class AccountError extends Error {}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function createUser(db: Db, input: NewUser) {
  if (!EMAIL.test(normalEmail(input.email))) throw new AccountError(`email "${input.email}" is not a valid email address`);
  const problem = passwordProblem(input.password);
  if (problem) throw new AccountError(`password: ${problem}`);
  if (!input.first_name.trim()) throw new AccountError('first_name is required');
  if (await findBusinessUserByEmail(db, input.businessAccountId, input.email)) {
    throw new AccountError(`business account #${input.businessAccountId} already has a user with the email ${input.email}`);
  }
  const practitionerIds = input.associated_practitioner_ids ?? [];
  if (practitionerIds.length) {
    const found = await practitionerIdsOfBusiness(db, input.businessAccountId, practitionerIds);
    if (found.length !== new Set(practitionerIds).size) throw new AccountError('associated_practitioner_ids names practitioners of another business or none');
  }
  return insertUser(db, {
    business_account_id: input.businessAccountId,
    email: input.email,
    password_hash: await hashPassword(input.password),
    first_name: input.first_name.trim(),
    last_name: input.last_name?.trim() ?? '',
    role: input.role,
    associated_practitioner_ids: practitionerIds,
  });
}

export async function createBusinessAccount(db: Db, input: {
  name: string; timeZone?: string; admin: Omit<NewUser, 'businessAccountId' | 'role'>;
}) {
  if (!input.name.trim()) throw new AccountError('name is required');
  const timeZone = input.timeZone ?? 'Australia/Brisbane';
  if (!canonicalTimeZone(timeZone)) throw new AccountError(`time zone "${timeZone}" is not an IANA time zone`);
  return db.transaction(async (tx) => {
    const business = await insertBusinessAccount(tx, input.name.trim(), timeZone);
    await createSyncSettings(tx, business.id);
    const admin = await createUser(tx, { ...input.admin, businessAccountId: business.id, role: 'ADMIN' });
    return { business, admin };
  });
}

/**
 * The user an operator command names by email. Emails are unique within a business only, so when the email is a user
 * of several businesses the command must say which (`businessAccountId`, the CLI's --business-id).
 */
export async function findUserForOperator(db: Db, email: string, businessAccountId?: number): Promise<UserWithBusiness> {
  const found = (await findUsersByEmail(db, email)).filter(({ business }) => businessAccountId === undefined || business.id === businessAccountId);
  if (!found.length) {
    throw new AccountError(businessAccountId === undefined
      ? `no user has the email ${email}`
      : `business account #${businessAccountId} has no user with the email ${email}`);
  }
  if (found.length > 1) {
    const businesses = found.map(({ business }) => `#${business.id} "${business.name}"`).join(', ');
    throw new AccountError(`${email} is a user of several business accounts (${businesses}): add --business-id to say which`);
  }
  return found[0];
}
