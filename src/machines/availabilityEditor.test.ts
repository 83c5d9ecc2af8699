import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  NO_DAY_MESSAGE,
  availabilityEditorMachine,
  availabilityProblems,
  availabilityToSend,
  isAvailabilityChanged,
  noSlotMessage,
  contextFromAvailability,
  type AvailabilityEditorEmitted,
  type AvailabilityEntry,
} from './availabilityEditor';

function start(availability: AvailabilityEntry[], save: (sent: AvailabilityEntry[]) => Promise<void> = async () => {}) {
  const sent: AvailabilityEntry[][] = [];
  const machine = availabilityEditorMachine.provide({
    actors: {
      saveAvailability: fromPromise(async ({ input }) => {
        sent.push(input.availability);
        await save(input.availability);
      }),
    },
  });
  const actor = createActor(machine, { input: { availability, saveTo: { clientId: 11 } } }).start();
  const emitted: AvailabilityEditorEmitted[] = [];
  actor.on('*', (event) => emitted.push(event));
  return { actor, sent, emitted };
}

describe('availability editor machine', () => {
  it('has custom availability on exactly when the client has entries', () => {
    expect(contextFromAvailability([]).custom).toBe(false);
    expect(contextFromAvailability([{ dow: 3 }]).custom).toBe(true);
  });

  it('reads a missing hours list as all day and keeps slots in grid order', () => {
    const context = contextFromAvailability([{ dow: 2 }, { dow: 5, hours: ['15:00-18:00', '06:00-09:00'] }]);
    expect(context.days[2]).toEqual({ enabled: true, allDay: true, hours: [] });
    expect(context.days[5]).toEqual({ enabled: true, allDay: false, hours: ['06:00-09:00', '15:00-18:00'] });
    expect(context.days[0].enabled).toBe(false);
  });

  it('sends an empty list when custom availability is switched off', async () => {
    const { actor, sent, emitted } = start([{ dow: 1 }, { dow: 0, hours: ['09:00-12:00'] }]);
    actor.send({ type: 'TOGGLE_CUSTOM' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(sent).toEqual([[]]);
    expect(emitted).toEqual([{ type: 'saved', availability: [] }]);
  });

  it('enables a day as all-day, lets slots be picked once all-day is unchecked, and clears them on disable', () => {
    const { actor } = start([]);
    actor.send({ type: 'TOGGLE_CUSTOM' });
    actor.send({ type: 'TOGGLE_DAY', dow: 4 });
    expect(actor.getSnapshot().context.days[4]).toEqual({ enabled: true, allDay: true, hours: [] });
    actor.send({ type: 'TOGGLE_SLOT', dow: 4, slot: '09:00-12:00' });
    expect(actor.getSnapshot().context.days[4].hours).toEqual([]);
    actor.send({ type: 'TOGGLE_ALL_DAY', dow: 4 });
    actor.send({ type: 'TOGGLE_SLOT', dow: 4, slot: '12:00-15:00' });
    actor.send({ type: 'TOGGLE_SLOT', dow: 4, slot: '06:00-09:00' });
    expect(actor.getSnapshot().context.days[4]).toEqual({ enabled: true, allDay: false, hours: ['06:00-09:00', '12:00-15:00'] });
    actor.send({ type: 'TOGGLE_DAY', dow: 4 });
    expect(actor.getSnapshot().context.days[4]).toEqual({ enabled: false, allDay: false, hours: [] });
  });

  it('ignores day edits while custom availability is off', () => {
    const { actor } = start([]);
    actor.send({ type: 'TOGGLE_DAY', dow: 1 });
    expect(actor.getSnapshot().context.days[1].enabled).toBe(false);
  });

  it('sends only enabled days, Monday first and Sunday last, hours only when picked on a not-all-day day', () => {
    const context = contextFromAvailability([
      { dow: 0, hours: ['15:00-18:00'] },
      { dow: 1 },
      { dow: 3, hours: ['06:00-09:00'] },
    ]);
    context.days[6] = { enabled: true, allDay: false, hours: [] };
    expect(availabilityToSend(context)).toEqual([
      { dow: 1 },
      { dow: 3, hours: ['06:00-09:00'] },
      { dow: 6 },
      { dow: 0, hours: ['15:00-18:00'] },
    ]);
  });

  it('does not save a day that is neither all day nor given a slot, nor custom availability without a day', () => {
    const { actor, sent } = start([{ dow: 1 }]);
    actor.send({ type: 'TOGGLE_ALL_DAY', dow: 1 });
    expect(availabilityProblems(actor.getSnapshot().context)).toEqual({ days: { 1: noSlotMessage(1) }, form: null });
    expect(actor.getSnapshot().can({ type: 'SAVE' })).toBe(false);
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(sent).toEqual([]);
    actor.send({ type: 'TOGGLE_DAY', dow: 1 });
    expect(availabilityProblems(actor.getSnapshot().context)).toEqual({ days: {}, form: NO_DAY_MESSAGE });
    expect(actor.getSnapshot().can({ type: 'SAVE' })).toBe(false);
    actor.send({ type: 'TOGGLE_CUSTOM' });
    expect(actor.getSnapshot().can({ type: 'SAVE' })).toBe(true);
  });

  it('tells unsaved edits from the saved availability as the user sees them', () => {
    const saved = [{ dow: 1 }, { dow: 0, hours: ['09:00-12:00' as const] }];
    const { actor } = start(saved);
    expect(isAvailabilityChanged(actor.getSnapshot().context, saved)).toBe(false);
    actor.send({ type: 'TOGGLE_ALL_DAY', dow: 1 });
    expect(isAvailabilityChanged(actor.getSnapshot().context, saved)).toBe(true);
    actor.send({ type: 'TOGGLE_ALL_DAY', dow: 1 });
    expect(isAvailabilityChanged(actor.getSnapshot().context, saved)).toBe(false);
    actor.send({ type: 'TOGGLE_CUSTOM' });
    expect(isAvailabilityChanged(actor.getSnapshot().context, saved)).toBe(true);
    // days edited and then hidden behind a switched-off custom availability are not an unsaved change
    const none = start([]);
    none.actor.send({ type: 'TOGGLE_CUSTOM' });
    none.actor.send({ type: 'TOGGLE_DAY', dow: 2 });
    none.actor.send({ type: 'TOGGLE_CUSTOM' });
    expect(isAvailabilityChanged(none.actor.getSnapshot().context, [])).toBe(false);
  });

  it('reports the server message when saving fails and stays editable', async () => {
    const { ApiError } = await import('../api/errors');
    const { actor, emitted } = start([{ dow: 1 }], async () => {
      throw new ApiError(422, { message: 'hours is malformed' }, 'x');
    });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(emitted).toEqual([{ type: 'failed', message: 'hours is malformed' }]);
  });

  it('falls back to the generic message when the failure carries none', async () => {
    const { actor, emitted } = start([{ dow: 1 }], async () => {
      throw new TypeError('Failed to fetch');
    });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (snapshot) => snapshot.matches('editing'));
    expect(emitted).toEqual([{ type: 'failed', message: 'An error has occurred' }]);
  });
});
