import { describe, expect, it } from 'vitest';
import { setup } from 'xstate';
import { readFile } from 'node:fs/promises';
import { expectedDiagrams, loadMachines, renderMachine } from './machine-diagrams';

describe('machine diagrams', () => {
  it('finds every machine in src/machines', async () => {
    const names = (await loadMachines()).map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['auth', 'flashMessages', 'sidebar', 'startUp', 'theme']));
  });

  it('are committed and up to date (run `npm run machines:diagrams` when this fails)', async () => {
    for (const [path, expected] of await expectedDiagrams()) {
      const onDisk = await readFile(path, 'utf8').catch(() => `(missing: ${path})`);
      expect(onDisk, path).toBe(expected);
    }
  });

  it('draws nested states, initial states, guards, actions and invoke results', () => {
    const machine = setup({
      actions: { remember: () => {} },
      guards: { ready: () => true },
    }).createMachine({
      id: 'door',
      initial: 'closed',
      states: {
        closed: { on: { OPEN: { target: 'open', guard: 'ready', actions: 'remember' } } },
        open: {
          initial: 'idle',
          states: { idle: { on: { CLOSE: '#door.closed' } } },
        },
      },
    });
    const text = renderMachine('door', machine);
    expect(text).toContain('stateDiagram-v2');
    expect(text).toContain('[*] --> closed');
    expect(text).toContain('state "open" as open {');
    expect(text).toContain('[*] --> open__idle');
    expect(text).toContain('closed --> open : OPEN [ready] / remember');
    expect(text).toContain('open__idle --> closed : CLOSE');
  });
});
