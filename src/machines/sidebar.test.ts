import { beforeEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { installMemoryStorage, type MemoryStorage } from '../testing/memoryStorage';
import { SIDEBAR_STORAGE_KEY, selectSidebarWidensOnHover, sidebarMachine } from './sidebar';

let storage: MemoryStorage;
beforeEach(() => {
  storage = installMemoryStorage();
});

describe('sidebar machine', () => {
  it('is visible and not unfoldable by default', () => {
    expect(createActor(sidebarMachine).start().getSnapshot().context).toEqual({ visible: true, unfoldable: false });
  });

  it('sets, toggles and persists both flags', () => {
    const actor = createActor(sidebarMachine).start();
    actor.send({ type: 'TOGGLE_VISIBLE' });
    actor.send({ type: 'TOGGLE_UNFOLDABLE' });
    expect(actor.getSnapshot().context).toEqual({ visible: false, unfoldable: true });
    actor.send({ type: 'SET_VISIBLE', visible: true });
    expect(actor.getSnapshot().context.visible).toBe(true);
    expect(JSON.parse(storage.getItem(SIDEBAR_STORAGE_KEY)!)).toEqual({ visible: true, unfoldable: true });
  });

  it('restores the persisted state on the next load and ignores corrupt entries', () => {
    storage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify({ visible: false, unfoldable: true }));
    expect(createActor(sidebarMachine).start().getSnapshot().context).toEqual({ visible: false, unfoldable: true });
    storage.setItem(SIDEBAR_STORAGE_KEY, '{not json');
    expect(createActor(sidebarMachine).start().getSnapshot().context).toEqual({ visible: true, unfoldable: false });
  });

  it('keeps the rail narrow under the pointer that narrowed it, until the pointer leaves', () => {
    const actor = createActor(sidebarMachine).start();
    expect(selectSidebarWidensOnHover(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'TOGGLE_UNFOLDABLE' });
    expect(actor.getSnapshot().context.unfoldable).toBe(true);
    expect(selectSidebarWidensOnHover(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'POINTER_LEFT' });
    expect(selectSidebarWidensOnHover(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'TOGGLE_UNFOLDABLE' });
    expect(selectSidebarWidensOnHover(actor.getSnapshot())).toBe(false);
  });

  it('widens on hover when restored narrow from an earlier visit', () => {
    storage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify({ visible: true, unfoldable: true }));
    expect(selectSidebarWidensOnHover(createActor(sidebarMachine).start().getSnapshot())).toBe(true);
  });
});
