// Business accounts and their users, created by the operator CLI, the demo seed, benchmarks and tests.
export { AccountError, createBusinessAccount, createUser, findUserForOperator, type NewUser } from './service';
