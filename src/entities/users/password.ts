// The password rule as people are told it (the server's rule: at least 10 characters, not on the common-passwords list).
export const PASSWORD_RULE = 'At least 10 characters, and not a common password.';
