// Subscription info and the payment-required flow (issue 14): the page's figures for ADMIN only, the operator's
// set-subscription, 40003 on every business call of the contract while payment is required (and not on the calls
// that fix it, nor on public pages), the Stripe webhook with signed sample events, and Stripe's requests' shape.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/src/app';
import type { StripeConfig } from '../../server/src/config';
import { outboxEmails } from '../../server/src/db/schema';
import { setSubscription, stripeSignature } from '../../server/src/modules/subscriptions';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const DAY = 24 * 3600_000;
let t: TestApp;
let acme: BusinessFixture;
let other: BusinessFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  other = await createBusinessFixture(t, 'other');
});
afterAll(() => t?.close());

const subscriptionOf = async (token = acme.tokens.admin) => {
  const response = await t.request('GET', '/api/subscription', { token });
  expect(response.status).toBe(200);
  return response.body.subscription;
};

describe('subscription info', () => {
  it('shows a new business on a 30-day trial with its seats and this month’s usage, to ADMIN only', async () => {
    await t.ctx.db.insert(outboxEmails).values({ business_account_id: acme.businessAccountId, to_address: 'c@x.test', subject: 'Hi', text_body: 'Hi' });
    const subscription = await subscriptionOf();
    expect(subscription).toMatchObject({
      plan: 'trial', status: 'trialing', payment_method_on_file: false, payment_required: false, past_due_since: null, grace_ends_at: null,
      seats: { used: 2, limit: 25 }, usage: { visits_optimised: 0, imports: 1, emails_sent: 1 },
      billing: { provider: 'offline', can_add_payment_method: false, can_open_portal: false },
    });
    expect(new Date(subscription.trial_ends_at).getTime() - Date.now()).toBeGreaterThan(29 * DAY);
    expect(subscription.usage.month).toMatch(/^\d{4}-\d{2}$/);
    expect((await subscriptionOf(other.tokens.admin)).usage.emails_sent).toBe(0);
    for (const token of [acme.tokens.staff, acme.tokens.practitioner]) {
      expect((await t.request('GET', '/api/subscription', { token })).status).toBe(403);
      expect((await t.request('POST', '/api/subscription/checkout', { token })).status).toBe(403);
    }
  });

  it('says, without Stripe, that payments are not taken online (409), and there is no webhook (404)', async () => {
    const checkout = await t.request('POST', '/api/subscription/checkout', { token: acme.tokens.admin });
    expect(checkout.status).toBe(409);
    expect(checkout.body.message).toMatch(/contact Rounds support/);
    expect((await t.request('POST', '/api/subscription/portal', { token: acme.tokens.admin })).status).toBe(409);
    expect((await t.request('POST', '/api/billing/stripe/webhook', { body: { id: 'evt_1' } })).status).toBe(404);
  });
});

describe('payment required (40003)', () => {
  const contract = loadContract() as unknown as {
    paths: Record<string, Record<string, { operationId: string; security?: unknown[]; 'x-roles'?: string[]; 'x-payment-exempt'?: boolean }>>;
  };
  const operations = Object.entries(contract.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({
    method: method.toUpperCase(), url: `/api${path.replace(/\{[^}]+\}/g, '1')}`, operation,
  })));
  const business = operations.filter(({ operation }) => !(Array.isArray(operation.security) && operation.security.length === 0));
  const gated = business.filter(({ operation }) => !operation['x-payment-exempt']);
  const exempt = business.filter(({ operation }) => operation['x-payment-exempt'] && operation.operationId !== 'logout');

  it('covers most of the contract: every business call but a handful that fix it', () => {
    expect(gated.length).toBeGreaterThan(60);
    expect(exempt.map(({ operation }) => operation.operationId).sort()).toEqual(
      ['getCurrentUser', 'getSubscription', 'openBillingPortal', 'startSubscriptionCheckout', 'updateCurrentUser']);
  });

  it('answers every business endpoint with 40003 once the trial ends without a payment method, and not the calls that fix it', async () => {
    const result = await setSubscription(t.ctx.db, acme.businessAccountId, { trialEndsAt: new Date(Date.now() - DAY), paymentMethodOnFile: false });
    expect(result.paymentRequired).toBe(true);
    for (const { method, url, operation } of gated) {
      const allowed = operation['x-roles'] ?? ['ADMIN', 'REGULAR_USER', 'PRACTITIONER'];
      const token = allowed.includes('ADMIN') ? acme.tokens.admin : allowed.includes('REGULAR_USER') ? acme.tokens.staff : acme.tokens.practitioner;
      const response = await t.request(method, url, { token, body: ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined });
      expect([response.status, response.body?.code], `${method} ${url}`).toEqual([403, '40003']);
    }
    // The users see why; the staff and practitioner are stopped too.
    const staffCall = await t.request('GET', '/api/clients', { token: acme.tokens.staff });
    expect(staffCall.body).toMatchObject({ code: '40003', message: 'A payment method is required to keep using Rounds.' });
    expect((await t.request('GET', '/api/appointments', { token: acme.tokens.practitioner })).body.code).toBe('40003');

    // What is needed to fix it stays open: the user, the subscription and its billing actions.
    expect((await t.request('GET', '/api/auth/user', { token: acme.tokens.practitioner })).status).toBe(200);
    expect((await t.request('GET', '/api/subscription', { token: acme.tokens.admin })).body.subscription.payment_required).toBe(true);
    expect((await t.request('POST', '/api/subscription/checkout', { token: acme.tokens.admin })).body.code).not.toBe('40003');
    // A non-admin still may not see the subscription: 403 for the role, not 40003.
    expect((await t.request('GET', '/api/subscription', { token: acme.tokens.staff })).body.code).toBe('FORBIDDEN');
    // Public pages keep working (an unknown link is refused for what it is, not for payment).
    const publicPage = await t.request('GET', '/api/public/availability?token=unknown-token');
    expect(publicPage.body?.code).not.toBe('40003');
    expect(publicPage.status).not.toBe(403);
    // Another business is not affected.
    expect((await t.request('GET', '/api/clients', { token: other.tokens.staff })).status).toBe(200);
  });

  it('lifts when a payment method is on file, and applies to past due beyond the 7-day grace period and cancelled', async () => {
    await setSubscription(t.ctx.db, acme.businessAccountId, { paymentMethodOnFile: true });
    expect((await t.request('GET', '/api/clients', { token: acme.tokens.staff })).status).toBe(200);

    const pastDue = await setSubscription(t.ctx.db, acme.businessAccountId, { plan: 'standard', status: 'past_due', pastDueSince: new Date(Date.now() - 3 * DAY) });
    expect(pastDue.paymentRequired).toBe(false);
    const inGrace = await subscriptionOf();
    expect(inGrace).toMatchObject({ status: 'past_due', payment_required: false, seats: { limit: 100 } });
    expect(new Date(inGrace.grace_ends_at).getTime() - Date.now()).toBeGreaterThan(3.9 * DAY);
    expect((await t.request('GET', '/api/clients', { token: acme.tokens.staff })).status).toBe(200);

    await setSubscription(t.ctx.db, acme.businessAccountId, { status: 'past_due', pastDueSince: new Date(Date.now() - 8 * DAY) });
    expect((await t.request('GET', '/api/clients', { token: acme.tokens.staff })).body.code).toBe('40003');

    await setSubscription(t.ctx.db, acme.businessAccountId, { status: 'cancelled' });
    expect((await t.request('GET', '/api/dashboard', { token: acme.tokens.admin })).body.code).toBe('40003');

    await setSubscription(t.ctx.db, acme.businessAccountId, { status: 'active' });
    expect(await subscriptionOf()).toMatchObject({ status: 'active', past_due_since: null, payment_required: false });
    expect((await t.request('GET', '/api/dashboard', { token: acme.tokens.admin })).status).toBe(200);
  });
});

describe('Stripe', () => {
  const SECRET = 'whsec_test_secret';
  let stripeApp: TestApp;
  let fake: Server;
  let shop: BusinessFixture;
  const received: { path: string; auth: string | undefined; form: URLSearchParams }[] = [];
  const logLines: string[] = [];
  let customersMade = 0;

  beforeAll(async () => {
    fake = createServer((request: IncomingMessage, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        received.push({ path: request.url ?? '', auth: request.headers.authorization, form: new URLSearchParams(body) });
        const answers: Record<string, object> = {
          // A new customer each time: cus_123 first.
          '/v1/customers': { id: `cus_${123 + customersMade}` },
          '/v1/checkout/sessions': { id: 'cs_1', url: 'https://checkout.stripe.test/c/cs_1' },
          '/v1/billing_portal/sessions': { id: 'bps_1', url: 'https://billing.stripe.test/p/bps_1' },
        };
        const answer = answers[request.url ?? ''];
        if (request.url === '/v1/customers') customersMade++;
        // Creating a customer takes Stripe a moment, as it does for real: long enough for simultaneous checkouts to meet.
        const delay = request.url === '/v1/customers' ? 100 : 0;
        setTimeout(() => response.writeHead(answer ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(answer ?? { error: {} })), delay);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const stripe: StripeConfig = { secretKey: 'sk_test_abc', webhookSecret: SECRET, priceId: 'price_standard', apiUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` };
    stripeApp = await startTestApp({ stripe, publicUrl: 'https://rounds.example' }, { logStream: { write: (line) => { logLines.push(line); } } });
    shop = await createBusinessFixture(stripeApp, 'shop');
  });
  afterAll(async () => {
    await stripeApp?.close();
    await new Promise((resolve) => fake?.close(resolve));
  });

  it('opens a Checkout Session for a new customer of the business, then the Billing Portal for it', async () => {
    const subscription = (await stripeApp.request('GET', '/api/subscription', { token: shop.tokens.admin })).body.subscription;
    expect(subscription.billing).toEqual({ provider: 'stripe', can_add_payment_method: true, can_open_portal: false });
    expect((await stripeApp.request('POST', '/api/subscription/portal', { token: shop.tokens.admin })).status).toBe(409);

    const checkout = await stripeApp.request('POST', '/api/subscription/checkout', { token: shop.tokens.admin });
    expect(checkout).toMatchObject({ status: 200, body: { url: 'https://checkout.stripe.test/c/cs_1' } });
    const [customer, session] = received;
    expect(customer.path).toBe('/v1/customers');
    expect(customer.auth).toBe('Bearer sk_test_abc');
    expect(Object.fromEntries(customer.form)).toEqual({ email: 'admin@shop.test', name: 'shop Care', 'metadata[business_account_id]': String(shop.businessAccountId) });
    expect(Object.fromEntries(session.form)).toEqual({
      mode: 'subscription', customer: 'cus_123', client_reference_id: String(shop.businessAccountId),
      success_url: 'https://rounds.example/settings/subscription?checkout=done', cancel_url: 'https://rounds.example/settings/subscription',
      'metadata[business_account_id]': String(shop.businessAccountId),
      'line_items[0][price]': 'price_standard', 'line_items[0][quantity]': '1',
      'subscription_data[metadata][business_account_id]': String(shop.businessAccountId),
    });

    const portal = await stripeApp.request('POST', '/api/subscription/portal', { token: shop.tokens.admin });
    expect(portal).toMatchObject({ status: 200, body: { url: 'https://billing.stripe.test/p/bps_1' } });
    expect(Object.fromEntries(received.at(-1)!.form)).toEqual({ customer: 'cus_123', return_url: 'https://rounds.example/settings/subscription' });
    // A second checkout reuses the customer.
    received.length = 0;
    await stripeApp.request('POST', '/api/subscription/checkout', { token: shop.tokens.admin });
    expect(received.map((entry) => entry.path)).toEqual(['/v1/checkout/sessions']);
  });

  it('makes one Stripe customer for a business when its admins start checkouts at the same time', async () => {
    const rush = await createBusinessFixture(stripeApp, 'rush');
    received.length = 0;
    const checkouts = await Promise.all([1, 2, 3].map(() => stripeApp.request('POST', '/api/subscription/checkout', { token: rush.tokens.admin })));
    expect(checkouts.map((checkout) => checkout.status)).toEqual([200, 200, 200]);
    expect(received.filter((entry) => entry.path === '/v1/customers')).toHaveLength(1);
    const sessions = received.filter((entry) => entry.path === '/v1/checkout/sessions');
    const [customer] = new Set(sessions.map((session) => session.form.get('customer')));
    expect(sessions.map((session) => session.form.get('customer'))).toEqual([customer, customer, customer]);
    expect((await stripeApp.request('GET', '/api/subscription', { token: rush.tokens.admin })).body.subscription.billing.can_open_portal).toBe(true);
  });

  const send = (event: object, options: { secret?: string; at?: number; signature?: string } = {}) => {
    const payload = JSON.stringify(event);
    const signature = options.signature ?? stripeSignature(payload, options.secret ?? SECRET, options.at ?? Math.floor(Date.now() / 1000));
    return stripeApp.request('POST', '/api/billing/stripe/webhook', { rawBody: payload, headers: { 'stripe-signature': signature } });
  };
  const now = Math.floor(Date.now() / 1000);
  const state = async () => (await stripeApp.request('GET', '/api/subscription', { token: shop.tokens.admin })).body.subscription;

  it('refuses events without a valid, recent signature', async () => {
    const event = { id: 'evt_forged', type: 'customer.subscription.deleted', created: now, data: { object: { customer: 'cus_123', status: 'canceled' } } };
    expect((await send(event, { secret: 'whsec_wrong' })).status).toBe(400);
    expect((await send(event, { at: now - 600 })).status).toBe(400);
    expect((await send(event, { signature: '' })).status).toBe(400);
    const tampered = JSON.stringify(event);
    const signature = stripeSignature(tampered, SECRET, now);
    const response = await stripeApp.request('POST', '/api/billing/stripe/webhook', {
      rawBody: tampered.replace('evt_forged', 'evt_other'), headers: { 'stripe-signature': signature },
    });
    expect(response.status).toBe(400);
    expect((await state()).status).toBe('trialing');
  });

  it('applies each event once, and never an event older than the last one applied', async () => {
    const completed = {
      id: 'evt_checkout', type: 'checkout.session.completed', created: now - 50,
      data: { object: { id: 'cs_1', customer: 'cus_123', subscription: 'sub_9', client_reference_id: String(shop.businessAccountId), metadata: { business_account_id: String(shop.businessAccountId) } } },
    };
    expect((await send(completed)).body).toEqual({ received: true, outcome: 'applied' });
    expect(await state()).toMatchObject({ plan: 'standard', status: 'active', payment_method_on_file: true, payment_required: false });

    // Replayed (Stripe retries deliveries): recognised, nothing changes.
    expect((await send(completed)).body.outcome).toBe('duplicate');

    const failed = { id: 'evt_failed', type: 'invoice.payment_failed', created: now - 40, data: { object: { customer: 'cus_123' } } };
    expect((await send(failed)).body.outcome).toBe('applied');
    expect(await state()).toMatchObject({ status: 'past_due', payment_required: false });

    const paid = { id: 'evt_paid', type: 'invoice.paid', created: now - 10, data: { object: { customer: 'cus_123' } } };
    expect((await send(paid)).body.outcome).toBe('applied');
    // An update created before the payment arrives late: stale, the business stays active.
    const late = { id: 'evt_late', type: 'customer.subscription.updated', created: now - 30, data: { object: { id: 'sub_9', customer: 'cus_123', status: 'past_due' } } };
    expect((await send(late)).body.outcome).toBe('stale');
    expect(await state()).toMatchObject({ status: 'active', past_due_since: null });

    const cancelled = { id: 'evt_deleted', type: 'customer.subscription.deleted', created: now, data: { object: { id: 'sub_9', customer: 'cus_123', status: 'canceled' } } };
    expect((await send(cancelled)).body.outcome).toBe('applied');
    expect(await state()).toMatchObject({ status: 'cancelled', payment_required: true });
    expect((await stripeApp.request('GET', '/api/clients', { token: shop.tokens.staff })).body.code).toBe('40003');

    // Someone else's customer, or an event type that changes nothing: received and ignored.
    expect((await send({ id: 'evt_x', type: 'invoice.paid', created: now, data: { object: { customer: 'cus_unknown' } } })).body.outcome).toBe('ignored');
    expect((await send({ id: 'evt_y', type: 'charge.refunded', created: now + 1, data: { object: { customer: 'cus_123' } } })).body.outcome).toBe('ignored');
    expect((await state()).status).toBe('cancelled');
  });

  it('refuses (400, in words) a signed event whose created time is no Unix time, and ignores a trial end that is none', async () => {
    const odd = await createBusinessFixture(stripeApp, 'odd');
    const metadata = { business_account_id: String(odd.businessAccountId) };
    const oddState = async () => (await stripeApp.request('GET', '/api/subscription', { token: odd.tokens.admin })).body.subscription;
    for (const created of [1e20, -1e20, 8.64e12, 253402300800, -1, 1.5]) {
      const response = await send({ id: `evt_created_${created}`, type: 'invoice.paid', created, data: { object: { customer: 'cus_odd', metadata } } });
      expect(response.status, String(created)).toBe(400);
      expect(response.body.message).toBe('The event’s created time is not a Unix time in seconds between 1970 and 9999.');
    }
    for (const trialEnd of [1e20, -1e20, 8.64e12, 2.5]) {
      const response = await send({
        id: `evt_trial_${trialEnd}`, type: 'customer.subscription.updated', created: now,
        data: { object: { id: 'sub_odd', customer: 'cus_odd', status: 'trialing', trial_end: trialEnd, metadata } },
      });
      expect(response, String(trialEnd)).toMatchObject({ status: 200, body: { received: true, outcome: 'applied' } });
    }
    expect(await oddState()).toMatchObject({ status: 'trialing', payment_required: false });
  });

  it('keeps the status of a signed subscription event whose status Rounds does not know (__proto__, constructor, toString)', async () => {
    const odd = await createBusinessFixture(stripeApp, 'proto');
    const metadata = { business_account_id: String(odd.businessAccountId) };
    for (const [index, status] of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'].entries()) {
      const response = await send({
        id: `evt_status_${status}`, type: 'customer.subscription.updated', created: now + index,
        data: { object: { id: 'sub_proto', customer: 'cus_proto', status, metadata } },
      });
      expect(response, status).toMatchObject({ status: 200, body: { received: true, outcome: 'applied' } });
    }
    expect((await stripeApp.request('GET', '/api/subscription', { token: odd.tokens.admin })).body.subscription).toMatchObject({ status: 'trialing' });
  });

  it('ignores, and logs, a signed event whose business id is beyond any id of ours (20 digits)', async () => {
    const huge = '12345678901234567890';
    const event = {
      id: 'evt_huge', type: 'checkout.session.completed', created: now + 2,
      data: { object: { id: 'cs_9', customer: 'cus_elsewhere', client_reference_id: huge, metadata: { business_account_id: huge } } },
    };
    const response = await send(event);
    expect(response).toMatchObject({ status: 200, body: { received: true, outcome: 'ignored' } });
    const line = logLines.map((text) => JSON.parse(text)).find((entry) => entry.eventId === 'evt_huge');
    expect(line).toMatchObject({ level: 40, customerId: 'cus_elsewhere', msg: expect.stringMatching(/names no business/) });
    expect((await state()).status).toBe('cancelled');
  });
});
