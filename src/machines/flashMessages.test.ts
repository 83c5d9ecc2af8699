import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { FLASH_AUTO_HIDE_MS, flashMessagesMachine, selectFlashMessages } from './flashMessages';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(flashMessagesMachine, { clock }).start();
  return { actor, clock, messages: () => selectFlashMessages(actor.getSnapshot()) };
}

describe('flashMessages machine', () => {
  it('appends messages in order, with type success by default', () => {
    const { actor, messages } = start();
    actor.send({ type: 'APPEND', text: 'Saved.' });
    actor.send({ type: 'APPEND', text: 'The account is not active.', flashType: 'danger' });
    expect(messages().map(({ text, type }) => ({ text, type }))).toEqual([
      { text: 'Saved.', type: 'success' },
      { text: 'The account is not active.', type: 'danger' },
    ]);
    expect(new Set(messages().map((message) => message.id)).size).toBe(2);
  });

  it('hides each message 5000 ms after it appeared', () => {
    const { actor, clock, messages } = start();
    actor.send({ type: 'APPEND', text: 'first' });
    clock.increment(3000);
    actor.send({ type: 'APPEND', text: 'second' });
    clock.increment(FLASH_AUTO_HIDE_MS - 3000 - 1);
    expect(messages().map((message) => message.text)).toEqual(['first', 'second']);
    clock.increment(1);
    expect(messages().map((message) => message.text)).toEqual(['second']);
    clock.increment(3000);
    expect(messages()).toEqual([]);
  });

  it('dismisses one message or clears them all', () => {
    const { actor, messages } = start();
    actor.send({ type: 'APPEND', text: 'a' });
    actor.send({ type: 'APPEND', text: 'b' });
    actor.send({ type: 'APPEND', text: 'c' });
    actor.send({ type: 'DISMISS', id: messages()[1].id });
    expect(messages().map((message) => message.text)).toEqual(['a', 'c']);
    actor.send({ type: 'CLEAR' });
    expect(messages()).toEqual([]);
  });

  it('shows an identical message once and starts its timer again', () => {
    const { actor, clock, messages } = start();
    actor.send({ type: 'APPEND', text: 'The date range is too long.', flashType: 'danger' });
    const [shown] = messages();
    clock.increment(3000);
    actor.send({ type: 'APPEND', text: 'The date range is too long.', flashType: 'danger' });
    expect(messages()).toEqual([shown]);
    clock.increment(FLASH_AUTO_HIDE_MS - 1);
    expect(messages()).toEqual([shown]);
    clock.increment(1);
    expect(messages()).toEqual([]);
  });

  it('keeps the same words with another type, and shows a message again once it is gone', () => {
    const { actor, clock, messages } = start();
    actor.send({ type: 'APPEND', text: 'Saved.' });
    actor.send({ type: 'APPEND', text: 'Saved.', flashType: 'info' });
    expect(messages().map(({ text, type }) => [text, type])).toEqual([['Saved.', 'success'], ['Saved.', 'info']]);
    actor.send({ type: 'DISMISS', id: messages()[0].id });
    actor.send({ type: 'APPEND', text: 'Saved.' });
    expect(messages().map(({ text, type }) => [text, type])).toEqual([['Saved.', 'info'], ['Saved.', 'success']]);
    clock.increment(FLASH_AUTO_HIDE_MS);
    expect(messages()).toEqual([]);
  });
});
