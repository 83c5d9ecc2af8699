// The business account: creating one with its first administrator (the operator CLI, the demo seed, benchmarks and
// tests), the users an operator adds to it, and its settings.
export { AccountError, createBusinessAccount, createUser, findUserForOperator, type NewUser } from './creation';
export { businessAccountHandlers } from './handlers';
