import { beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { installMemoryStorage, type MemoryStorage } from '../testing/memoryStorage';
import { selectTheme, THEME_STORAGE_KEY, themeMachine, type ThemeEvent } from './theme';

let storage: MemoryStorage;
beforeEach(() => {
  storage = installMemoryStorage();
});

/** The machine with the DOM and the media query replaced by a recorder and a switch. */
function start(systemDark = false) {
  const applied: boolean[] = [];
  let emitSystemChange: ((dark: boolean) => void) | null = null;
  const machine = themeMachine.provide({
    actions: {
      applyDark: (_, params: { dark: boolean }) => applied.push(params.dark),
      applySystemScheme: () => applied.push(systemDark),
    },
    actors: {
      watchSystemScheme: fromCallback<ThemeEvent>(({ sendBack }) => {
        emitSystemChange = (dark) => sendBack({ type: 'SYSTEM_SCHEME_CHANGED', dark });
        return () => {
          emitSystemChange = null;
        };
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, applied, systemChanges: (dark: boolean) => emitSystemChange?.(dark), watching: () => emitSystemChange !== null };
}

describe('theme machine', () => {
  it('defaults to Auto and follows the system preference', () => {
    const { actor, applied, systemChanges } = start(true);
    expect(selectTheme(actor.getSnapshot())).toBe('auto');
    expect(applied).toEqual([true]);
    systemChanges(false);
    expect(applied).toEqual([true, false]);
  });

  it('Light and Dark apply at once, persist under appearance-theme and stop following the system', () => {
    const { actor, applied, systemChanges, watching } = start(false);
    actor.send({ type: 'SET_THEME', theme: 'dark' });
    expect(selectTheme(actor.getSnapshot())).toBe('dark');
    expect(applied.at(-1)).toBe(true);
    expect(JSON.parse(storage.getItem(THEME_STORAGE_KEY)!)).toBe('dark');
    expect(watching()).toBe(false);
    systemChanges(false);
    expect(applied.at(-1)).toBe(true);

    actor.send({ type: 'SET_THEME', theme: 'light' });
    expect(applied.at(-1)).toBe(false);
    expect(JSON.parse(storage.getItem(THEME_STORAGE_KEY)!)).toBe('light');
  });

  it('restores the stored choice on the next load', () => {
    storage.setItem(THEME_STORAGE_KEY, JSON.stringify('dark'));
    const { actor, applied } = start(false);
    expect(selectTheme(actor.getSnapshot())).toBe('dark');
    expect(applied).toEqual([true]);
  });
});
