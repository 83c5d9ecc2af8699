import { describe, expect, it } from 'vitest';
import { instantOn } from './clock';
import { occurrencesOf } from './generation';
import type { CarePlanRow } from './repository';

const plan = (values: Partial<CarePlanRow> = {}): CarePlanRow => ({
  id: 1, business_account_id: 1, client_id: 7, appointment_type_id: 3, weekdays: [1, 3, 5], window_start: 450, window_end: 540, duration_minutes: 45,
  carers: 1, starts_on: '2029-12-03', ends_on: null, preferred_practitioner_ids: [], notes: null, created_at: new Date(), updated_at: new Date(), ...values,
});
const names = new Map([[7, 'Mei Lee']]);
const dates = (rows: { date: string; carer_index?: number }[]) => rows.map((row) => row.date);

describe('a care plan\'s occurrences', () => {
  it('fall on its ISO weekdays within its dates and the range, with the reason in words', () => {
    const rows = occurrencesOf([plan({ ends_on: '2029-12-12' })], '2029-12-01', '2029-12-31', 'Australia/Brisbane', new Set(), new Map(), [], names);
    expect(dates(rows)).toEqual(['2029-12-03', '2029-12-05', '2029-12-07', '2029-12-10', '2029-12-12']);
    expect(rows[0]).toMatchObject({ care_plan_id: 1, client_id: 7, window_start: 450, window_end: 540, carer_index: 0, reason: "New in Mei Lee's care plan" });
    // Sunday is 7.
    expect(dates(occurrencesOf([plan({ weekdays: [7] })], '2029-12-03', '2029-12-09', 'Australia/Brisbane', new Set(), new Map(), [], names))).toEqual(['2029-12-09']);
  });

  it('skip public holidays, the client\'s absences and a window the client already has that type booked in; two carers make two', () => {
    const booked = [
      // Wednesday 08:00–08:45: inside the window, same client and type.
      { clientId: 7, typeId: 3, startsAt: instantOn('2029-12-05', 480, 'Australia/Brisbane'), endsAt: instantOn('2029-12-05', 525, 'Australia/Brisbane') },
      // Friday, another type: does not count.
      { clientId: 7, typeId: 4, startsAt: instantOn('2029-12-07', 480, 'Australia/Brisbane'), endsAt: instantOn('2029-12-07', 525, 'Australia/Brisbane') },
      // Monday 10 December, after the window: does not count.
      { clientId: 7, typeId: 3, startsAt: instantOn('2029-12-10', 540, 'Australia/Brisbane'), endsAt: instantOn('2029-12-10', 585, 'Australia/Brisbane') },
    ];
    const rows = occurrencesOf(
      [plan({ carers: 2, ends_on: '2029-12-14' })], '2029-12-01', '2029-12-31', 'Australia/Brisbane',
      new Set(['2029-12-03']), new Map([[7, [{ starts_on: '2029-12-12', ends_on: '2029-12-12' }]]]), booked, names,
    );
    expect(rows.map((row) => `${row.date}/${row.carer_index}`)).toEqual([
      '2029-12-05/1', '2029-12-07/0', '2029-12-07/1', '2029-12-10/0', '2029-12-10/1', '2029-12-14/0', '2029-12-14/1',
    ]);
  });

  it('read the window in the business\'s zone on a daylight-saving day', () => {
    // Sydney moves to daylight time on Sunday 7 October 2029 at 02:00: 07:30 that day is 20:30 UTC the day before.
    expect(instantOn('2029-10-07', 450, 'Australia/Sydney').toISOString()).toBe('2029-10-06T20:30:00.000Z');
    expect(instantOn('2029-10-06', 450, 'Australia/Sydney').toISOString()).toBe('2029-10-05T21:30:00.000Z');
  });
});
