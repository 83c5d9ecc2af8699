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
}
