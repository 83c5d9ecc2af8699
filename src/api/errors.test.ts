import { describe, expect, it } from 'vitest';
import { ApiError, errorLinesFrom, errorMessageFrom, fieldProblemsOf, messageOfError, messagesOfError } from './errors';

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

describe('errorLinesFrom', () => {
  it.each([
    ['the message, then a first error that adds something', { message: 'The request is invalid.', errors: ['end_date: before start_date', 'x'] }, ['The request is invalid.', 'end_date: before start_date']],
    ['the message once when errors repeat it', { message: 'The date range can be at most 62 days (got 75).', errors: ['The date range can be at most 62 days (got 75).'] }, ['The date range can be at most 62 days (got 75).']],
    ['the message once when it quotes its first error', { message: 'Invalid request: ahead_days must be <= 61.', errors: ['ahead_days must be <= 61'] }, ['Invalid request: ahead_days must be <= 61.']],
    ['the first error without a message', { errors: ['', 'start_date is required'] }, ['start_date is required']],
    ['the fallback for nothing useful', { message: ' ' }, ['fallback']],
    ['the fallback for no body', null, ['fallback']],
  ])('%s', (_, body, lines) => {
    expect(errorLinesFrom(body, 'fallback')).toEqual(lines);
  });

  it('messagesOfError shows the server’s lines, or the fallback for anything else', () => {
    expect(messagesOfError(new ApiError(422, { message: 'A.', errors: ['A.'] }, 'f'), 'g')).toEqual(['A.']);
    expect(messagesOfError(new ApiError(500, {}, 'Could not save.'), 'g')).toEqual(['Could not save.']);
    expect(messagesOfError(new TypeError('fetch failed'), 'g')).toEqual(['g']);
  });

  it('reads the fields a 422 names, and keeps the lines that name no field the form shows', () => {
    const shown = (field: string) => /^(time_zone|working_hours\[\d\]|max_visits)$/.test(field);
    const problem = new ApiError(422, {
      message: 'time_zone: "Mars/Base" is not an IANA time zone name such as Australia/Brisbane.',
      errors: [
        'time_zone: "Mars/Base" is not an IANA time zone name such as Australia/Brisbane.',
        'working_hours[2]: on Wednesday the end (08:00) must be after the start (09:00).',
        'colour: is not a colour',
        'The practitioner is busy',
      ],
    }, 'fallback');
    expect(fieldProblemsOf(problem, shown)).toEqual({
      fields: [
        { field: 'time_zone', text: '"Mars/Base" is not an IANA time zone name such as Australia/Brisbane.' },
        { field: 'working_hours[2]', text: 'On Wednesday the end (08:00) must be after the start (09:00).' },
      ],
      other: ['colour: is not a colour', 'The practitioner is busy'],
    });
    // The contract's own checks: "Invalid request: field …" in the message, the bare line in errors.
    const schema = new ApiError(422, { message: 'Invalid request: max_visits must be <= 100.', errors: ['max_visits must be <= 100'] }, 'fallback');
    expect(fieldProblemsOf(schema, shown).fields).toEqual([{ field: 'max_visits', text: 'Must be 100 or less.' }]);
    const bare = new ApiError(422, { message: 'Invalid request: max_visits must be <= 100.' }, 'fallback');
    expect(fieldProblemsOf(bare, shown).fields).toEqual([{ field: 'max_visits', text: 'Must be 100 or less.' }]);
    // A 409 whose errors name the field (a value another record holds) goes under it, its address as written.
    const taken = new ApiError(409, { message: 'sam@acme.test already has an account.', errors: ['time_zone: sam@acme.test already has an account.'] }, 'fallback');
    expect(fieldProblemsOf(taken, shown)).toEqual({ fields: [{ field: 'time_zone', text: 'sam@acme.test already has an account.' }], other: [] });
    expect(fieldProblemsOf(new ApiError(409, { message: 'Last administrator.' }, 'fallback'), shown)).toEqual({ fields: [], other: ['Last administrator.'] });
    // Under its field, a check reads without the field's raw name.
    const checks = new ApiError(422, { errors: ['time_zone must NOT have more than 64 characters', 'max_visits must be integer', 'time_zone is required', 'max_visits must match pattern "x"'] }, 'fallback');
    expect(fieldProblemsOf(checks, shown).fields.map((problem) => problem.text))
      .toEqual(['Use at most 64 characters.', 'Must be a whole number.', 'This field is required.', 'Must match pattern "x".']);
    // Not a 422: no field, the message as the one other line.
    expect(fieldProblemsOf(new ApiError(404, { message: 'Practitioner not found.' }, 'fallback'), shown)).toEqual({ fields: [], other: ['Practitioner not found.'] });
    expect(fieldProblemsOf(new TypeError('fetch failed'), shown, 'Could not save.')).toEqual({ fields: [], other: ['Could not save.'] });
    expect(fieldProblemsOf(null, shown, 'Could not save.')).toEqual({ fields: [], other: [] });
  });
});
