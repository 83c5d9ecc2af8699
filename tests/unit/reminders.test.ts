// The pure parts of the appointment reminders: the due instant in a zone with daylight saving, the arrival window,
// the unsubscribe token, and the SMS settings' validation.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/src/config';
import {
  arrivalWindow, clientOfUnsubscribeToken, reminderDueAt, reminderSlot, unsubscribeToken,
} from '../../server/src/modules/reminders';

describe('when reminders are due', () => {
  it('is the reminder hour in the business zone, the next existing hour when skipped, the first when repeated', () => {
    expect(reminderDueAt('2026-11-25', 2, 'Australia/Brisbane').toISOString()).toBe('2026-11-24T16:00:00.000Z');
    expect(reminderDueAt('2027-10-03', 2, 'Australia/Sydney').toISOString()).toBe('2027-10-02T16:00:00.000Z'); // 03:00 AEDT
    expect(reminderDueAt('2027-04-04', 2, 'Australia/Sydney').toISOString()).toBe('2027-04-03T15:00:00.000Z'); // the first 02:00
    expect(reminderSlot(new Date('2027-10-02T15:30:00Z'), 2, 'Australia/Sydney')).toEqual({
      today: '2027-10-03', dueAt: new Date('2027-10-02T16:00:00Z'), visitDate: '2027-10-04',
    });
  });
});

describe('the arrival window', () => {
  it('rounds the routed arrival to 15 minutes and gives ±30 minutes, else the booked time', () => {
    const visit = (arrive: string | null) => ({ startsAt: new Date('2026-11-25T23:00:00Z'), arriveAt: arrive ? new Date(arrive) : null });
    expect(arrivalWindow(visit('2026-11-25T23:07:00Z'), 'Australia/Brisbane')).toBe('between 8:30 am and 9:30 am');
    expect(arrivalWindow(visit('2026-11-25T23:08:00Z'), 'Australia/Brisbane')).toBe('between 8:45 am and 9:45 am');
    expect(arrivalWindow(visit(null), 'Australia/Brisbane')).toBe('at 9:00 am');
  });
});

describe('the unsubscribe token', () => {
  it('names its client only under the secret it was signed with', () => {
    const token = unsubscribeToken('a'.repeat(32), 42);
    expect(clientOfUnsubscribeToken('a'.repeat(32), token)).toBe(42);
    expect(clientOfUnsubscribeToken('b'.repeat(32), token)).toBeNull();
    expect(clientOfUnsubscribeToken('a'.repeat(32), token.replace(/^42/, '43'))).toBeNull();
    expect(clientOfUnsubscribeToken('a'.repeat(32), `${token}x`)).toBeNull();
  });
});

describe('SMS settings', () => {
  it('are off by default, on with SMS_URL and all three credentials, and refused when half given', () => {
    expect(loadConfig({}).sms).toBeNull();
    expect(loadConfig({ SMS_URL: 'https://sms.example/2010-04-01/', SMS_ACCOUNT_SID: 'AC1', SMS_AUTH_TOKEN: 't', SMS_FROM: '+61400000000' }).sms)
      .toEqual({ url: 'https://sms.example/2010-04-01', accountSid: 'AC1', authToken: 't', from: '+61400000000' });
    expect(() => loadConfig({ SMS_URL: 'https://sms.example', SMS_ACCOUNT_SID: 'AC1' })).toThrow(ConfigError);
    expect(() => loadConfig({ SMS_URL: 'https://sms.example', SMS_ACCOUNT_SID: 'AC1' })).toThrow(/SMS_AUTH_TOKEN, SMS_FROM must be set too/);
    expect(() => loadConfig({ SMS_AUTH_TOKEN: 't' })).toThrow(/need SMS_URL/);
  });
});
