#!/usr/bin/env node
// `node scripts/flow-modules.mjs [checkout]`: the server modules each of three flows' modules depends on (optimise and
// apply a day: optimizations; an import: sync; a report with its CSV: reports) — directly and through others — and
// the modules that sit on an import cycle, from dependency-cruiser's graph of server/src (type-only imports
// counted, tests left out). Run it on an older checkout (a git worktree) to compare.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(process.argv[2] ?? repo);
let json;
try {
  json = execFileSync(path.join(repo, 'node_modules/.bin/depcruise'), ['--config', path.join(repo, '.dependency-cruiser.cjs'), '--output-type', 'json', 'server/src'],
    { cwd: root, maxBuffer: 1 << 29 }).toString();
} catch (error) {
  json = error.stdout.toString(); // a rule broken in an older checkout: the graph is still printed
}
const moduleOf = (file) => file.match(/^server\/src\/modules\/([^/.]+)/)?.[1] ?? null;
const uses = new Map();
for (const file of JSON.parse(json).modules) {
  const from = moduleOf(file.source);
  if (!from || /\.test\.ts$/.test(file.source)) continue;
  if (!uses.has(from)) uses.set(from, new Set());
  for (const dependency of file.dependencies) {
    const to = moduleOf(dependency.resolved);
    if (to && to !== from) uses.get(from).add(to);
  }
}
const reached = (start) => {
  const seen = new Set();
  const stack = [start];
  while (stack.length) {
    for (const next of uses.get(stack.pop()) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
};
for (const [flow, module] of [['optimise and apply a day', 'optimizations'], ['an import', 'sync'], ['a report with its CSV', 'reports']]) {
  console.log(`${flow} (${module}): ${uses.get(module).size} modules directly, ${[...reached(module)].filter((m) => m !== module).length} in all`);
}
const onCycle = [...uses.keys()].filter((module) => reached(module).has(module)).sort();
console.log(`modules on an import cycle: ${onCycle.length}${onCycle.length ? ` (${onCycle.join(', ')})` : ''}`);
