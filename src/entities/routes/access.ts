import type { Role } from '../../api/types';

/** Who may optimise a day and change routes (the contract's x-roles of the runs and routes): staff, not practitioners. */
export const canPlanRoutes = (role: Role | null | undefined): boolean => role === 'ADMIN' || role === 'REGULAR_USER';
