import { assign, setup, type SnapshotFrom } from 'xstate';
import { readStored, writeStored } from '../lib/storage';

export const SIDEBAR_STORAGE_KEY = 'rounds.sidebar';

export interface SidebarContext {
  /** Shown at all (on a phone: the drawer is open). */
  visible: boolean;
  /** The narrow, icons-only rail that widens on hover. */
  unfoldable: boolean;
}

export type SidebarEvent =
  | { type: 'SET_VISIBLE'; visible: boolean }
  | { type: 'TOGGLE_VISIBLE' }
  | { type: 'TOGGLE_UNFOLDABLE' }
  /** The pointer left the sidebar. */
  | { type: 'POINTER_LEFT' };

const SIDEBAR_DEFAULTS: SidebarContext = { visible: true, unfoldable: false };

const isSidebarContext = (value: unknown): value is SidebarContext =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SidebarContext).visible === 'boolean' &&
  typeof (value as SidebarContext).unfoldable === 'boolean';

function restoreSidebar(): SidebarContext {
  return readStored(SIDEBAR_STORAGE_KEY, isSidebarContext) ?? SIDEBAR_DEFAULTS;
}

export const sidebarMachine = setup({
  types: {
    context: {} as SidebarContext,
    events: {} as SidebarEvent,
  },
  guards: {
    isUnfoldable: ({ context }) => context.unfoldable,
  },
  actions: {
    setVisible: assign((_, params: { visible: boolean }) => ({ visible: params.visible })),
    toggleVisible: assign(({ context }) => ({ visible: !context.visible })),
    toggleUnfoldable: assign(({ context }) => ({ unfoldable: !context.unfoldable })),
    persist: ({ context }) => writeStored(SIDEBAR_STORAGE_KEY, { visible: context.visible, unfoldable: context.unfoldable }),
  },
}).createMachine({
  id: 'sidebar',
  // Untyped input keeps it optional for createActor; given input replaces what is stored.
  context: ({ input }) => {
    const given = input as Partial<SidebarContext> | undefined;
    return { ...(given ? SIDEBAR_DEFAULTS : restoreSidebar()), ...given };
  },
  initial: 'ready',
  states: {
    ready: {
      // The narrow rail widens while hovered. Right after the user narrows it with the pointer on it, it stays
      // narrow (`held`) until the pointer leaves, so the click shows its effect at once. Keyboard focus widens
      // it in either state.
      initial: 'free',
      states: {
        free: {},
        held: { on: { POINTER_LEFT: 'free' } },
      },
      on: {
        SET_VISIBLE: { actions: [{ type: 'setVisible', params: ({ event }) => ({ visible: event.visible }) }, 'persist'] },
        TOGGLE_VISIBLE: { actions: ['toggleVisible', 'persist'] },
        TOGGLE_UNFOLDABLE: [
          { guard: 'isUnfoldable', target: '.free', actions: ['toggleUnfoldable', 'persist'] },
          { target: '.held', actions: ['toggleUnfoldable', 'persist'] },
        ],
      },
    },
  },
});

export type SidebarSnapshot = SnapshotFrom<typeof sidebarMachine>;
export const selectSidebarVisible = (snapshot: SidebarSnapshot) => snapshot.context.visible;
export const selectSidebarUnfoldable = (snapshot: SidebarSnapshot) => snapshot.context.unfoldable;
/** Whether hovering the narrow rail widens it (not until the pointer leaves after narrowing). */
export const selectSidebarWidensOnHover = (snapshot: SidebarSnapshot) => snapshot.context.unfoldable && snapshot.matches({ ready: 'free' });
