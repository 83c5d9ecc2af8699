// Domain shapes the shell works with, taken from the generated contract types.
import type { components } from './schema';

type Schemas = components['schemas'];

export type Role = Schemas['Role'];
export const ROLES: readonly Role[] = ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'];

export type User = Schemas['User'];
export type Session = Schemas['Session'];
export type ProviderAccount = Schemas['ProviderAccount'];
export type ProviderAccountStatus = Schemas['ProviderAccountStatus'];
export type AppConfig = Schemas['AppConfig'];
export type Appointment = Schemas['Appointment'];

export interface Credentials {
  email: string;
  password: string;
  /** Which business to log in to, when the email and password open accounts in several. */
  business_account_id?: number;
}

/** A business a login's email and password open, offered when they open several (409 CHOOSE_BUSINESS). */
export type BusinessChoice = Schemas['BusinessChoices']['businesses'][number];
