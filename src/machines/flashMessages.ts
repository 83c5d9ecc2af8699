import { assign, raise, setup, type SnapshotFrom } from 'xstate';

export const FLASH_TYPES = ['success', 'info', 'warning', 'danger'] as const;
export type FlashType = (typeof FLASH_TYPES)[number];
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

export const flashMessagesMachine = setup({
  types: {
    context: {} as FlashMessagesContext,
    events: {} as FlashMessagesEvent,
  },
  delays: {
    autoHide: FLASH_AUTO_HIDE_MS,
  },
  actions: {
    append: assign(({ context }, params: { text: string; flashType?: FlashType }) => ({
      messages: [...context.messages, { id: context.nextId, text: params.text, type: params.flashType ?? 'success' }],
      nextId: context.nextId + 1,
    })),
    scheduleHide: raise((_, params: { id: number }) => ({ type: 'DISMISS' as const, id: params.id }), {
      delay: 'autoHide',
    }),
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
        APPEND: {
          actions: [
            // nextId is read before `append` bumps it, so the timer hides this very message.
            { type: 'scheduleHide', params: ({ context }) => ({ id: context.nextId }) },
            { type: 'append', params: ({ event }) => ({ text: event.text, flashType: event.flashType }) },
          ],
        },
        DISMISS: { actions: { type: 'dismiss', params: ({ event }) => ({ id: event.id }) } },
        CLEAR: { actions: 'clear' },
      },
    },
  },
});

export type FlashMessagesSnapshot = SnapshotFrom<typeof flashMessagesMachine>;
export const selectFlashMessages = (snapshot: FlashMessagesSnapshot) => snapshot.context.messages;
