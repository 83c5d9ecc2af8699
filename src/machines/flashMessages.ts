import { assign, cancel, enqueueActions, setup, type SnapshotFrom } from 'xstate';

export type FlashType = 'success' | 'info' | 'warning' | 'danger';
export const FLASH_AUTO_HIDE_MS = 5000;

export interface FlashMessage {
  id: number;
  text: string;
  type: FlashType;
}

export interface FlashMessagesContext {
  messages: FlashMessage[];
  nextId: number;
}

export type FlashMessagesEvent =
  | { type: 'APPEND'; text: string; flashType?: FlashType }
  | { type: 'DISMISS'; id: number }
  | { type: 'CLEAR' };

/** The message already on screen with the same words and type, if any. */
function shownAlike(messages: readonly FlashMessage[], text: string, flashType: FlashType = 'success'): FlashMessage | undefined {
  return messages.find((message) => message.text === text && message.type === flashType);
}

/** The id of the delayed DISMISS that hides message `id`, so that showing it again can restart its timer. */
const hideTimer = (id: number) => `flash-hide-${id}`;

export const flashMessagesMachine = setup({
  types: {
    context: {} as FlashMessagesContext,
    events: {} as FlashMessagesEvent,
  },
  delays: {
    autoHide: FLASH_AUTO_HIDE_MS,
  },
  guards: {
    alreadyShown: ({ context }, params: { text: string; flashType?: FlashType }) => shownAlike(context.messages, params.text, params.flashType) !== undefined,
  },
  actions: {
    append: assign(({ context }, params: { text: string; flashType?: FlashType }) => ({
      messages: [...context.messages, { id: context.nextId, text: params.text, type: params.flashType ?? 'success' }],
      nextId: context.nextId + 1,
    })),
    scheduleHide: enqueueActions(({ enqueue }, params: { id: number }) => {
      enqueue.raise({ type: 'DISMISS', id: params.id }, { delay: 'autoHide', id: hideTimer(params.id) });
    }),
    cancelHide: cancel((_, params: { id: number }) => hideTimer(params.id)),
    dismiss: assign(({ context }, params: { id: number }) => ({
      messages: context.messages.filter((message) => message.id !== params.id),
    })),
    clear: assign({ messages: [] }),
  },
}).createMachine({
  id: 'flashMessages',
  context: { messages: [], nextId: 1 },
  initial: 'showing',
  states: {
    showing: {
      on: {
        APPEND: [
          {
            // The same words again (a retried action failing the same way): the toast on screen stays, its timer starts over.
            guard: { type: 'alreadyShown', params: ({ event }) => ({ text: event.text, flashType: event.flashType }) },
            actions: [
              { type: 'cancelHide', params: ({ context, event }) => ({ id: shownAlike(context.messages, event.text, event.flashType)!.id }) },
              { type: 'scheduleHide', params: ({ context, event }) => ({ id: shownAlike(context.messages, event.text, event.flashType)!.id }) },
            ],
          },
          {
            actions: [
              // nextId is read before `append` bumps it, so the timer hides this very message.
              { type: 'scheduleHide', params: ({ context }) => ({ id: context.nextId }) },
              { type: 'append', params: ({ event }) => ({ text: event.text, flashType: event.flashType }) },
            ],
          },
        ],
        DISMISS: {
          actions: [
            { type: 'cancelHide', params: ({ event }) => ({ id: event.id }) },
            { type: 'dismiss', params: ({ event }) => ({ id: event.id }) },
          ],
        },
        CLEAR: { actions: 'clear' },
      },
    },
  },
});

export type FlashMessagesSnapshot = SnapshotFrom<typeof flashMessagesMachine>;
export const selectFlashMessages = (snapshot: FlashMessagesSnapshot) => snapshot.context.messages;
