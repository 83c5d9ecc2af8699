export { subscriptionHandlers } from './handlers';
// For app.ts (the 40003 gate), the operator command and tests.
export { SubscriptionService, setSubscription, PAYMENT_REQUIRED_CODE, PAYMENT_REQUIRED_MESSAGE, type SubscriptionSetting } from './service';
export { stripeSignature } from './billing/stripe-signature';
export { GRACE_DAYS, TRIAL_DAYS, PLAN_SEAT_LIMITS, paymentRequired, subscriptionStateOf, type SubscriptionTerms } from './rules';
// For the scheduler's selections (automatic sync, reminders): the businesses to skip while payment is required.
export { businessesRequiringPayment } from './service';
