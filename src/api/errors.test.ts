import { describe, expect, it } from 'vitest';
import { ApiError, errorMessageFrom, messageOfError } from './errors';

describe('error messages', () => {
  it("prefers the server's message, then its first error, then the fallback", () => {
    expect(errorMessageFrom({ message: 'Email is taken.', errors: ['x'] }, 'fallback')).toBe('Email is taken.');
    expect(errorMessageFrom({ message: '', errors: ['', 'email: must be an email'] }, 'fallback')).toBe('email: must be an email');
    expect(errorMessageFrom({ errors: [] }, 'fallback')).toBe('fallback');
    expect(errorMessageFrom(null, 'fallback')).toBe('fallback');
    expect(errorMessageFrom('<html>Bad gateway</html>', 'fallback')).toBe('fallback');
  });

  it('carries status and code on ApiError, and shows only server words', () => {
    const error = new ApiError(403, { message: 'Not active', code: 'PROVIDER_ACCOUNT_NOT_ACTIVE' }, 'fallback');
    expect([error.status, error.code, error.message]).toEqual([403, 'PROVIDER_ACCOUNT_NOT_ACTIVE', 'Not active']);
    expect(messageOfError(error, 'fallback')).toBe('Not active');
    expect(messageOfError(new TypeError('fetch failed'), 'fallback')).toBe('fallback');
  });
});
