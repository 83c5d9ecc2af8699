export { subscriptionHandlers } from './handlers';
// For app.ts (the 40003 gate), the operator command and tests.
export { SubscriptionService, isPaymentRequired, setSubscription, PAYMENT_REQUIRED_CODE, type SubscriptionSetting } from './service';
export { stripeSignature } from './billing/stripe-signature';
export { GRACE_DAYS, TRIAL_DAYS, PLAN_SEAT_LIMITS } from './rules';
