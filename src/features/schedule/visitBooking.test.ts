import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { BEST_FIT, BOOKING_PROBLEMS, bestFitRequestOf, bookingOf, windowOf, type VisitDraft } from './visitBooking';

const draft = (overrides: Partial<VisitDraft> = {}): VisitDraft => ({
  clientId: 21, typeId: 3, day: Temporal.PlainDate.from('2026-11-25'), when: 'morning', time: '09:00', from: '09:00', to: '11:00', practitioner: BEST_FIT, ...overrides,
});

describe('a new visit’s window', () => {
  it('is the whole visit: morning and afternoon as named, a time the visit’s length from it and a few minutes more', () => {
    expect(windowOf(draft(), 45)).toEqual({ start: '07:00', end: '12:00' });
    expect(windowOf(draft({ when: 'afternoon' }), 45)).toEqual({ start: '12:00', end: '17:00' });
    expect(windowOf(draft({ when: 'time', time: '9.30' }), 45)).toEqual({ start: '09:30', end: '10:20' });
    expect(windowOf(draft({ when: 'time', time: '23:30' }), 45)).toEqual({ start: '23:30', end: '23:59' });
    expect(windowOf(draft({ when: 'custom', from: '10:00', to: '09:00' }), 45)).toBeNull();
  });

  it('says what is missing first, and a window shorter than the visit', () => {
    expect(bestFitRequestOf(draft({ clientId: null }), 45)).toEqual({ problem: BOOKING_PROBLEMS.client });
    expect(bestFitRequestOf(draft({ when: 'time', time: '25:00' }), 45)).toEqual({ problem: BOOKING_PROBLEMS.time });
    expect(bestFitRequestOf(draft({ when: 'custom', from: '09:00', to: '09:30' }), 45)).toEqual({ problem: BOOKING_PROBLEMS.shortWindow(45) });
    expect(bestFitRequestOf(draft({ practitioner: 8 }), 45)).toEqual({
      client_id: 21, appointment_type_id: 3, date: '2026-11-25', window_start: '07:00', window_end: '12:00', practitioner_ids: [8], limit: 5,
    });
  });

  it('books a practitioner at a time straight away, and a best fit only once one is chosen', () => {
    expect(bookingOf(draft({ when: 'time', time: '09:30', practitioner: 8 }), 45, null, 'Australia/Brisbane', 'book-1')).toEqual({
      client_id: 21, appointment_type_id: 3, request_id: 'book-1', practitioner_id: 8, starts_at: '2026-11-25T09:30:00+10:00',
    });
    expect(bookingOf(draft(), 45, null, 'Australia/Brisbane', 'book-1')).toEqual({ problem: BOOKING_PROBLEMS.fit });
  });
});
