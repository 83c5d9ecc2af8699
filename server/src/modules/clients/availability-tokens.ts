// Availability-link tokens: 32 random bytes plus an HMAC of them under the app secret, so a forged or mistyped
// token is refused before any lookup. Only the SHA-256 of the whole token is stored. Issued here with an availability
// request; verified by the public availability page (modules/public-availability).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../auth/tokens';

export const AVAILABILITY_LINK_TTL_DAYS = 7;

function signature(secret: string, random: string): string {
  return createHmac('sha256', secret).update(`client-availability:${random}`).digest('base64url').slice(0, 32);
}

export function issueAvailabilityToken(secret: string): { token: string; tokenHash: string } {
  const random = randomBytes(32).toString('base64url');
  const token = `${random}.${signature(secret, random)}`;
  return { token, tokenHash: hashToken(token) };
}

/** The hash to look the token up by, or null when the token was not issued with this secret. */
export function verifiedTokenHash(secret: string, token: string): string | null {
  const [random, given, ...rest] = token.split('.');
  if (!random || !given || rest.length) return null;
  const expected = Buffer.from(signature(secret, random));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  return hashToken(token);
}
