// Renders every XState machine in src/machines as a Mermaid stateDiagram-v2 into
// docs/machines/<file>.md, so the flows can be read without running anything.
//   npm run machines:diagrams            write the diagrams
//   npm run machines:diagrams -- --check exit 1 when a committed diagram is stale
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine, AnyStateNode } from 'xstate';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const MACHINES_DIR = join(root, 'src/machines');
export const DIAGRAMS_DIR = join(root, 'docs/machines');

type Transition = AnyStateNode['transitions'] extends Map<string, (infer T)[]> ? T : never;

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && 'root' in value && 'config' in value && 'provide' in value;
}

/** Mermaid ids must be unique across the diagram; state keys repeat (idle, loading) in different parents. */
function mermaidId(node: AnyStateNode): string {
  return node.path.length === 0 ? 'root' : node.path.map((key) => key.replace(/[^A-Za-z0-9]/g, '_')).join('__');
}

/** Static params of primitives are shown (`startsAs light`); computed ones are not knowable here. */
function paramsSuffix(params: unknown): string {
  if (typeof params !== 'object' || params === null) return '';
  const values = Object.values(params);
  return values.length > 0 && values.every((value) => ['string', 'number', 'boolean'].includes(typeof value))
    ? ` ${values.join(' ')}`
    : '';
}

function nameOf(item: unknown, fallback: string): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null && 'type' in item && typeof item.type === 'string') {
    return item.type + paramsSuffix((item as { params?: unknown }).params);
  }
  if (typeof item === 'function') {
    // Built-in action creators carry their kind (xstate.assign, xstate.emit, ...); custom inline ones do not.
    const kind = (item as { type?: unknown }).type;
    return typeof kind === 'string' ? kind.replace(/^xstate\./, '') : fallback;
  }
  return fallback;
}

function eventLabel(node: AnyStateNode, eventType: string): string {
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (done) {
    const invoke = node.invoke.find((definition) => definition.id === done[2]);
    const src = invoke ? nameOf(invoke.src, done[2]) : done[2];
    return `${done[1] === 'done' ? 'done' : 'error'} ${src}`;
  }
  const delayed = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (delayed) return `after ${delayed[1]}`;
  return eventType;
}

function transitionLabel(node: AnyStateNode, transition: Transition, eventType: string): string {
  let label = eventLabel(node, eventType);
  if (transition.guard) label += ` [${nameOf(transition.guard, 'guarded')}]`;
  const actions = transition.actions.map((action) => nameOf(action, 'action'));
  if (actions.length > 0) label += ` / ${actions.join(', ')}`;
  else if (!transition.target) label += ' (ignored here)';
  // Mermaid ends a label at ';' and reads '#' as an entity.
  return label.replace(/[;#]/g, ' ');
}

function renderNode(node: AnyStateNode, lines: string[], indent: string): void {
  const children = Object.values(node.states) as AnyStateNode[];
  for (const child of children) {
    const id = mermaidId(child);
    const childIndent = `${indent}  `;
    if (Object.keys(child.states).length > 0) {
      lines.push(`${indent}state "${child.key}" as ${id} {`);
      renderInitial(child, lines, childIndent);
      renderNode(child, lines, childIndent);
      lines.push(`${indent}}`);
    } else {
      lines.push(`${indent}state "${child.key}" as ${id}`);
      if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
    }
    for (const invoke of child.invoke) lines.push(`${indent}${id} : invoke ${nameOf(invoke.src, 'actor')}`);
  }
}

function renderInitial(node: AnyStateNode, lines: string[], indent: string): void {
  const target = node.initial?.target?.[0];
  if (target) lines.push(`${indent}[*] --> ${mermaidId(target)}`);
}

function renderTransitions(node: AnyStateNode, lines: string[]): void {
  const source = mermaidId(node);
  for (const transition of node.always ?? []) {
    for (const target of transition.target ?? [node]) {
      lines.push(`  ${source} --> ${mermaidId(target)} : ${transitionLabel(node, transition, 'always')}`);
    }
  }
  for (const [eventType, transitions] of node.transitions) {
    for (const transition of transitions) {
      // Targetless transitions stay in the state (a self-loop); without actions they only stop the
      // event from reaching a parent's handler.
      for (const target of transition.target ?? [node]) {
        lines.push(`  ${source} --> ${mermaidId(target)} : ${transitionLabel(node, transition, eventType)}`);
      }
    }
  }
  for (const child of Object.values(node.states) as AnyStateNode[]) renderTransitions(child, lines);
}

export function renderMachine(name: string, machine: AnyStateMachine): string {
  const lines = ['stateDiagram-v2'];
  renderInitial(machine.root, lines, '  ');
  renderNode(machine.root, lines, '  ');
  // Root-level `on` handlers apply in every state; Mermaid has no root box, so draw them from each
  // top-level state that can receive events (not the transient ones left at once by `always`).
  const topLevel = (Object.values(machine.root.states) as AnyStateNode[]).filter((node) => !node.always?.length);
  for (const [eventType, transitions] of machine.root.transitions) {
    for (const transition of transitions) {
      for (const from of topLevel) {
        for (const target of transition.target ?? [from]) {
          lines.push(`  ${mermaidId(from)} --> ${mermaidId(target)} : ${transitionLabel(machine.root, transition, eventType)}`);
        }
      }
    }
  }
  for (const child of Object.values(machine.root.states) as AnyStateNode[]) renderTransitions(child, lines);
  return [
    `# Machine \`${machine.id}\` (src/machines/${name}.ts)`,
    '',
    'Generated by `npm run machines:diagrams` from the machine definition; do not edit by hand.',
    'Labels read `EVENT [guard] / actions`; `done X` / `error X` are the results of the invoked actor X.',
    '',
    '```mermaid',
    ...lines,
    '```',
    '',
  ].join('\n');
}

export async function loadMachines(): Promise<Array<{ name: string; machine: AnyStateMachine }>> {
  const files = (await readdir(MACHINES_DIR)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).sort();
  const found: Array<{ name: string; machine: AnyStateMachine }> = [];
  for (const file of files) {
    const module: Record<string, unknown> = await import(pathToFileURL(join(MACHINES_DIR, file)).href);
    const machine = Object.values(module).find(isMachine);
    if (machine) found.push({ name: file.replace(/\.ts$/, ''), machine });
  }
  return found;
}

/** Every diagram as it should be on disk: file path → content. */
export async function expectedDiagrams(): Promise<Map<string, string>> {
  const diagrams = new Map<string, string>();
  for (const { name, machine } of await loadMachines()) diagrams.set(join(DIAGRAMS_DIR, `${name}.md`), renderMachine(name, machine));
  return diagrams;
}

export async function staleDiagrams(): Promise<string[]> {
  const stale: string[] = [];
  for (const [path, content] of await expectedDiagrams()) {
    const onDisk = await readFile(path, 'utf8').catch(() => null);
    if (onDisk !== content) stale.push(path);
  }
  return stale;
}

async function main(): Promise<void> {
  if (process.argv.includes('--check')) {
    const stale = await staleDiagrams();
    if (stale.length > 0) {
      console.error(`Stale machine diagrams (run npm run machines:diagrams):\n${stale.map((path) => `  ${path}`).join('\n')}`);
      process.exit(1);
    }
    console.log('Machine diagrams are up to date.');
    return;
  }
  await mkdir(DIAGRAMS_DIR, { recursive: true });
  for (const [path, content] of await expectedDiagrams()) {
    await writeFile(path, content);
    console.log(`wrote ${path.slice(root.length + 1)}`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
