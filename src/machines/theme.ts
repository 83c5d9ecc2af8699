import { fromCallback, setup, type SnapshotFrom } from 'xstate';
import { readStored, writeStored } from '../lib/storage';

export const THEME_STORAGE_KEY = 'appearance-theme';
const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];
const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

export type ThemeEvent = { type: 'SET_THEME'; theme: Theme } | { type: 'SYSTEM_SCHEME_CHANGED'; dark: boolean };

export interface ThemeInput {
  theme?: Theme;
}

const isTheme = (value: unknown): value is Theme => (THEMES as readonly unknown[]).includes(value);

function restoreTheme(): Theme {
  return readStored(THEME_STORAGE_KEY, isTheme) ?? 'auto';
}

function systemPrefersDark(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_SCHEME_QUERY).matches
    : false;
}

function applyDarkClass(dark: boolean): void {
  if (typeof document === 'undefined') return;
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}

export const themeMachine = setup({
  types: {
    context: {} as { initial: Theme },
    events: {} as ThemeEvent,
  },
  actors: {
    watchSystemScheme: fromCallback<ThemeEvent>(({ sendBack }) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return undefined;
      const query = window.matchMedia(DARK_SCHEME_QUERY);
      const onChange = (change: MediaQueryListEvent) => sendBack({ type: 'SYSTEM_SCHEME_CHANGED', dark: change.matches });
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    }),
  },
  actions: {
    applyDark: (_, params: { dark: boolean }) => applyDarkClass(params.dark),
    applySystemScheme: () => applyDarkClass(systemPrefersDark()),
    persist: (_, params: { theme: Theme }) => writeStored(THEME_STORAGE_KEY, params.theme),
  },
  guards: {
    startsAs: ({ context }, params: { theme: Theme }) => context.initial === params.theme,
    chose: ({ event }, params: { theme: Theme }) => event.type === 'SET_THEME' && event.theme === params.theme,
  },
}).createMachine({
  id: 'theme',
  // Untyped input keeps it optional for createActor.
  context: ({ input }) => ({ initial: (input as ThemeInput | undefined)?.theme ?? restoreTheme() }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [
        { guard: { type: 'startsAs', params: { theme: 'light' } }, target: 'light' },
        { guard: { type: 'startsAs', params: { theme: 'dark' } }, target: 'dark' },
        { target: 'auto' },
      ],
    },
    light: {
      entry: { type: 'applyDark', params: { dark: false } },
    },
    dark: {
      entry: { type: 'applyDark', params: { dark: true } },
    },
    auto: {
      entry: 'applySystemScheme',
      invoke: { src: 'watchSystemScheme' },
      on: {
        SYSTEM_SCHEME_CHANGED: { actions: { type: 'applyDark', params: ({ event }) => ({ dark: event.dark }) } },
      },
    },
  },
  on: {
    SET_THEME: [
      { guard: { type: 'chose', params: { theme: 'light' } }, target: '.light', actions: { type: 'persist', params: { theme: 'light' } } },
      { guard: { type: 'chose', params: { theme: 'dark' } }, target: '.dark', actions: { type: 'persist', params: { theme: 'dark' } } },
      { guard: { type: 'chose', params: { theme: 'auto' } }, target: '.auto', actions: { type: 'persist', params: { theme: 'auto' } } },
    ],
  },
});

export type ThemeSnapshot = SnapshotFrom<typeof themeMachine>;
export const selectTheme = (snapshot: ThemeSnapshot): Theme =>
  snapshot.matches('light') ? 'light' : snapshot.matches('dark') ? 'dark' : 'auto';
