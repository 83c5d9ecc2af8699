// The reminder emails' unsubscribe link: the client's id signed with the app secret. It does not expire (a client may
// use it from any old reminder) and only turns reminders off, so it needs no stored state.
import { createHmac, timingSafeEqual } from 'node:crypto';

function signature(secret: string, clientId: number): string {
  return createHmac('sha256', secret).update(`reminders-unsubscribe:${clientId}`).digest('base64url').slice(0, 32);
}

export function unsubscribeToken(secret: string, clientId: number): string {
  return `${clientId}.${signature(secret, clientId)}`;
}

/** The client a token was issued for, or null when it was not issued with this secret. */
export function clientOfUnsubscribeToken(secret: string, token: string): number | null {
  const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{32})$/.exec(token);
  if (!match) return null;
  const clientId = Number(match[1]);
  if (!Number.isSafeInteger(clientId) || clientId > 2_147_483_647) return null;
  const expected = Buffer.from(signature(secret, clientId));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given) ? clientId : null;
}
