// Stripe-Signature verification: "t=<unix seconds>,v1=<hex>[,v1=…]", where v1 is HMAC-SHA256 of `${t}.${payload}`
// with the endpoint's secret (STRIPE_WEBHOOK_SECRET), and t within the tolerance of now (replays of old deliveries).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function stripeSignature(payload: string, secret: string, timestamp: number): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

/** Null when the header proves the payload came from Stripe now; otherwise why not. */
export function signatureProblem(header: string | undefined, payload: string, secret: string, nowSeconds: number): string | null {
  if (!header) return 'The Stripe-Signature header is missing.';
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value ?? '');
  if (!Number.isInteger(timestamp) || signatures.length === 0) return 'The Stripe-Signature header has no timestamp or no v1 signature.';
  if (Math.abs(nowSeconds - timestamp) > SIGNATURE_TOLERANCE_SECONDS) return 'The Stripe-Signature timestamp is outside the tolerance.';
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex'), 'utf8');
  const matches = signatures.some((signature) => {
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? null : 'The Stripe-Signature does not match the payload.';
}
