// What other features use of auth: the password rule as people are told it.
export { PASSWORD_RULE } from './NewPasswordFields';
