// How the users page names roles and statuses.
import { ROLES as ALL_ROLES } from '../../../api/types';
import type { Role, UserStatus } from './api';

export const ROLES = ALL_ROLES;
export const ROLE_LABELS: Record<Role, string> = { ADMIN: 'Administrator', REGULAR_USER: 'Staff', PRACTITIONER: 'Practitioner' };
export const STATUSES: readonly UserStatus[] = ['invited', 'active', 'deactivated'];
export const STATUS_LABELS: Record<UserStatus, string> = { invited: 'Invited', active: 'Active', deactivated: 'Deactivated' };
