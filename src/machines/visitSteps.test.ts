import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { RecordedVisitStep, VisitState, VisitStepRequest } from '../api/visitSteps';
import { REASON_TEXT_NEEDED, visitStepsMachine, type VisitStepsInput } from './visitSteps';

const AFTER: Record<VisitStepRequest['step'], VisitState> = {
  on_my_way: 'on_my_way', arrived: 'arrived', done: 'done', could_not_attend: 'could_not_attend', reopened: 'not_started',
};

function start(input: Partial<VisitStepsInput> = {}, answer?: (step: VisitStepRequest) => Promise<RecordedVisitStep>) {
  const sent: VisitStepRequest[] = [];
  const notes: { appointmentId: number; note: string }[] = [];
  const machine = visitStepsMachine.provide({
    actors: {
      saveNote: fromPromise(async ({ input: note }) => {
        notes.push(note);
      }),
      sendStep: fromPromise(async ({ input: request }) => {
        sent.push(request.step);
        if (answer) return answer(request.step);
        return { step: { step: request.step.step }, appointment: { visit_state: AFTER[request.step.step] } } as unknown as RecordedVisitStep;
      }),
    },
  });
  const actor = createActor(machine, { input: { appointmentId: 1, state: 'not_started', canReopen: false, ...input } }).start();
  return { actor, sent, notes };
}

const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (snapshot) => !snapshot.matches('sending'));

describe('visit steps machine', () => {
  it('starts in the state the server said', () => {
    expect(start({ state: 'arrived' }).actor.getSnapshot().value).toBe('arrived');
    expect(start({ state: 'could_not_attend' }).actor.getSnapshot().value).toBe('couldNotAttend');
  });

  it('goes On my way → Arrived → Done in one tap each, with its own key and time, and takes a note after Done', async () => {
    const { actor, sent, notes } = start();
    actor.send({ type: 'ON_MY_WAY' });
    await settled(actor);
    actor.send({ type: 'ARRIVED' });
    await settled(actor);
    actor.send({ type: 'DONE' });
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('done');
    expect(sent.map((step) => step.step)).toEqual(['on_my_way', 'arrived', 'done']);
    expect(sent[2].note).toBeUndefined();
    expect(new Set(sent.map((step) => step.idempotency_key)).size).toBe(3);
    expect(sent.every((step) => typeof step.at === 'string')).toBe(true);

    actor.send({ type: 'ADD_NOTE', note: '' });
    expect(actor.getSnapshot().value).toBe('writingNote');
    actor.send({ type: 'CHANGE_NOTE', value: '  All well  ' });
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (snapshot) => !snapshot.matches('savingNote'));
    expect(notes).toEqual([{ appointmentId: 1, note: 'All well' }]);
    expect(sent).toHaveLength(3);
  });

  it('asks for a reason, and words for other only, before Could not attend is sent', async () => {
    const { actor, sent } = start({ state: 'on_my_way' });
    actor.send({ type: 'COULD_NOT_ATTEND' });
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().context.error).toBe('Choose a reason.');
    actor.send({ type: 'CHOOSE_REASON', reason: 'other' });
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().context.error).toBe(REASON_TEXT_NEEDED);
    actor.send({ type: 'CHANGE_REASON_TEXT', value: 'Road closed' });
    actor.send({ type: 'CHOOSE_REASON', reason: 'hospital' });
    actor.send({ type: 'CONFIRM' });
    await settled(actor);
    expect(sent).toEqual([expect.objectContaining({ step: 'could_not_attend', reason: 'hospital' })]);
    expect(sent[0]).not.toHaveProperty('reason_text');
    expect(actor.getSnapshot().value).toBe('couldNotAttend');
  });

  it('lets only a coordinator reopen', async () => {
    expect(start({ state: 'done' }).actor.getSnapshot().can({ type: 'REOPEN' })).toBe(false);
    const { actor, sent } = start({ state: 'done', canReopen: true });
    actor.send({ type: 'REOPEN' });
    await settled(actor);
    expect(sent[0].step).toBe('reopened');
    expect(actor.getSnapshot().value).toBe('notStarted');
  });

  it('resends the same step (time and key) on a retry, and drops it when the server’s state has moved on', async () => {
    let refuse = true;
    const { actor, sent } = start({}, async (step) => {
      if (refuse) throw new Error('offline');
      return { step: { step: step.step }, appointment: { visit_state: AFTER[step.step] } } as unknown as RecordedVisitStep;
    });
    actor.send({ type: 'ON_MY_WAY' });
    await settled(actor);
    expect(actor.getSnapshot().value).toBe('failed');
    refuse = false;
    actor.send({ type: 'RETRY' });
    await settled(actor);
    expect(sent[1]).toEqual(sent[0]);
    expect(actor.getSnapshot().value).toBe('onMyWay');

    refuse = true;
    actor.send({ type: 'ARRIVED' });
    await settled(actor);
    actor.send({ type: 'SYNC', state: 'could_not_attend' });
    expect(actor.getSnapshot().value).toBe('couldNotAttend');
    expect(actor.getSnapshot().context.pending).toBeNull();
  });
});
