// Who is calling, and what they may see. Every handler reads the caller through here.
import type { FastifyRequest } from 'fastify';
import type { ListsVersion } from '../db/list-cache';
import type { Role } from '../db/schema';
import { forbidden, HttpError, unauthenticated } from '../http/errors';

export interface AuthContext {
  sessionId: number;
  userId: number;
  businessAccountId: number;
  role: Role;
  associatedPractitionerIds: number[];
  fullName: string;
  /** The business must add a payment method (read with the session): its calls answer 40003 but for the exempt ones. */
  paymentRequired: boolean;
  /**
   * The business's lists version and time zone, read with the session (the list cache's key: see ListCache), so
   * a list request makes one database round trip before answering from the cache, not two. Absent when the
   * context was not made from a session.
   */
  lists?: ListsVersion;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const USER_NOT_ACTIVE_CODE = '40000';
export const DEACTIVATED_MESSAGE = 'Your account has been deactivated. Ask your administrator to reactivate it.';
/** A deactivated user's request: the web app logs them out and the login page says why. */
export const deactivatedCaller = () => new HttpError(401, DEACTIVATED_MESSAGE, USER_NOT_ACTIVE_CODE);

export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

export function assertRole(auth: AuthContext, roles: readonly Role[] | undefined): void {
  if (roles && !roles.includes(auth.role)) throw forbidden('Your role does not allow this action.');
}

/** The practitioners a caller is limited to, or null when they may see every practitioner of the business. */
export function practitionerScope(auth: AuthContext): number[] | null {
  return auth.role === 'PRACTITIONER' ? auth.associatedPractitionerIds : null;
}
