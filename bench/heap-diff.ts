/**
 * `npx tsx bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [--top 25]`: what grew between two heap
 * snapshots of one process (bench:load --heap-snapshots writes them), by constructor or kind of object: count and
 * shallow size before and after, largest growth first. A leak shows as a kind whose count keeps growing with the run
 * (Map entries, closures, strings of one shape); caches that stay within their bound do not.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

type Totals = Map<string, { count: number; bytes: number }>;

function totals(file: string): Totals {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const [typeNames] = heap.snapshot.meta.node_types;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const byKind: Totals = new Map();
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = typeNames[heap.nodes[i + typeAt]];
    // Objects and closures by constructor or function name; strings, arrays, code and the rest by their type.
    const name = type === 'object' || type === 'closure' ? `${type} ${heap.strings[heap.nodes[i + nameAt]]}` : `(${type})`;
    const entry = byKind.get(name) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += heap.nodes[i + sizeAt];
    byKind.set(name, entry);
  }
  return byKind;
}

const [beforeFile, afterFile] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (!beforeFile || !afterFile) throw new Error('usage: npx tsx bench/heap-diff.ts before.heapsnapshot after.heapsnapshot [--top 25]');
const topAt = process.argv.indexOf('--top');
const top = topAt >= 0 ? Number(process.argv[topAt + 1]) : 25;
const before = totals(beforeFile);
const after = totals(afterFile);
const sum = (map: Totals) => [...map.values()].reduce((total, entry) => total + entry.bytes, 0);
const mb = (bytes: number) => Math.round(bytes / 1e4) / 100;
console.log(`shallow size of everything: ${mb(sum(before))} MB → ${mb(sum(after))} MB`);
const rows = [...new Set([...before.keys(), ...after.keys()])].map((kind) => {
  const a = before.get(kind) ?? { count: 0, bytes: 0 };
  const b = after.get(kind) ?? { count: 0, bytes: 0 };
  return { kind: kind.slice(0, 60), 'count before': a.count, 'count after': b.count, 'MB before': mb(a.bytes), 'MB after': mb(b.bytes), 'MB grown': mb(b.bytes - a.bytes) };
});
console.table(rows.sort((x, y) => y['MB grown'] - x['MB grown']).slice(0, top));
