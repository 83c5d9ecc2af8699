import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError } from '../api/errors';
import {
  ARRIVAL_TIME_ERROR_MESSAGE,
  ARRIVAL_TIME_FORMAT_MESSAGE,
  arrivalTimeEditorMachine,
  arrivalWindow,
  arrivalWindowHint,
  isValidArrivalTime,
  type ArrivalTimeEditorEmitted,
  type ArrivalTimeEditorInput,
} from './arrivalTimeEditor';

const BASE: ArrivalTimeEditorInput = {
  appointmentId: 42,
  startsAt: '2026-11-22T23:00:00Z', // 09:00 on 23 Nov in Brisbane
  toleranceMinutes: 180, // 06:00 to 12:00
  arriveAt: '2026-11-22T22:50:00Z',
  routeId: null,
  timeZone: 'Australia/Brisbane',
};

function start(input: Partial<ArrivalTimeEditorInput> = {}, save?: (arriveAt: string) => Promise<{ arrive_at: string | null }>) {
  const sent: string[] = [];
  const machine = arrivalTimeEditorMachine.provide({
    actors: {
      saveArrivalTime: fromPromise(async ({ input: request }) => {
        sent.push(request.arriveAt);
        return save ? save(request.arriveAt) : { arrive_at: request.arriveAt };
      }),
    },
  });
  const actor = createActor(machine, { input: { ...BASE, ...input } }).start();
  const emitted: ArrivalTimeEditorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  return { actor, sent, emitted };
}

describe('arrival time editor machine', () => {
  it('accepts HH:mm in 5-minute steps only', () => {
    expect(isValidArrivalTime('09:35')).toBe(true);
    expect(isValidArrivalTime('23:55')).toBe(true);
    expect(isValidArrivalTime('09:37')).toBe(false);
    expect(isValidArrivalTime('9:35')).toBe(false);
    expect(isValidArrivalTime('24:00')).toBe(false);
    expect(isValidArrivalTime('')).toBe(false);
  });

  it('is locked when the appointment is on a route', () => {
    const { actor } = start({ routeId: 7 });
    expect(actor.getSnapshot().value).toBe('locked');
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().value).toBe('locked');
  });

  it('starts the draft from the current arrival time in the practitioner zone', () => {
    const { actor } = start();
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().context.draft).toBe('08:50');
  });

  it('uses the start time when no arrival time is set', () => {
    const { actor } = start({ arriveAt: null });
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().context.draft).toBe('09:00');
  });

  it('sends the time on the appointment day with the zone offset', async () => {
    const { actor, sent, emitted } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '09:35' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    expect(sent).toEqual(['2026-11-23T09:35:00+10:00']);
    expect(emitted).toEqual([{ type: 'saved', arriveAt: '2026-11-23T09:35:00+10:00' }]);
  });

  it('uses the offset in force on that day across daylight saving (Sydney)', async () => {
    const { actor, sent } = start({ timeZone: 'Australia/Sydney', startsAt: '2026-04-04T22:00:00Z', arriveAt: null });
    // 2026-04-05 is the day DST ends in Sydney: +11:00 until 03:00, +10:00 after.
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '10:00' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    expect(sent).toEqual(['2026-04-05T10:00:00+10:00']);
  });

  it('rejects an invalid time without sending and keeps editing', () => {
    const { actor, sent } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '09:37' });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe(ARRIVAL_TIME_FORMAT_MESSAGE);
    expect(sent).toEqual([]);
  });

  it('does not send an unchanged time', () => {
    const { actor, sent } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('viewing');
    expect(sent).toEqual([]);
  });

  it('shows the server 422 message, or the fallback, and stays editing', async () => {
    const refused = start({}, async () => {
      throw new ApiError(422, { message: 'The arrival time must be before the appointment ends.' }, 'x');
    });
    refused.actor.send({ type: 'EDIT' });
    refused.actor.send({ type: 'CHANGE', value: '11:00' });
    refused.actor.send({ type: 'SAVE' });
    await waitFor(refused.actor, (snapshot) => snapshot.matches('editing'));
    expect(refused.emitted).toEqual([{ type: 'failed', message: 'The arrival time must be before the appointment ends.' }]);

    const broken = start({}, async () => {
      throw new TypeError('network');
    });
    broken.actor.send({ type: 'EDIT' });
    broken.actor.send({ type: 'CHANGE', value: '10:00' });
    broken.actor.send({ type: 'SAVE' });
    await waitFor(broken.actor, (snapshot) => snapshot.matches('editing'));
    expect(broken.actor.getSnapshot().context.error).toBe(ARRIVAL_TIME_ERROR_MESSAGE);
  });

  it('reads times typed without a colon or leading zero as 24-hour HH:mm', async () => {
    const { actor, sent } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '935' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('viewing'));
    expect(sent).toEqual(['2026-11-23T09:35:00+10:00']);
  });

  it('knows the allowed window (the booked time ± the tolerance, on its day) before anything is typed, and refuses a time outside it in words', () => {
    expect(arrivalWindow(BASE)).toEqual({ from: '06:00', to: '12:00' });
    expect(arrivalWindowHint(BASE)).toBe('Allowed: 06:00 to 12:00 (180 minutes either side of the booked time), Australia/Brisbane time. 24-hour clock, 5-minute steps.');
    // the window stays on the appointment's day
    expect(arrivalWindow({ ...BASE, startsAt: '2026-11-23T13:00:00Z' })).toEqual({ from: '20:00', to: '23:55' });
    expect(arrivalWindow({ ...BASE, toleranceMinutes: 600 }).from).toBe('00:00');
    const { actor, sent } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '12:05' });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.error).toBe(
      "The arrival time must be between 06:00 and 12:00: within 180 minutes of the booked time, on the appointment's day (Australia/Brisbane).",
    );
    actor.send({ type: 'CHANGE', value: '05:55' });
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().context.error).toMatch(/^The arrival time must be between 06:00 and 12:00/);
    expect(sent).toEqual([]);
  });

  it('cancel returns to the saved time', () => {
    const { actor } = start();
    actor.send({ type: 'EDIT' });
    actor.send({ type: 'CHANGE', value: '11:00' });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('viewing');
    actor.send({ type: 'EDIT' });
    expect(actor.getSnapshot().context.draft).toBe('08:50');
  });
});
