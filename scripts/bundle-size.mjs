#!/usr/bin/env node
// Prints the gzip size of the JavaScript a first page load needs (the entry and its preloaded chunks) and fails
// above the shell's budget. Lazy-loaded pages are not counted.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 150;
const html = readFileSync('dist/index.html', 'utf8');
const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
let total = 0;
for (const script of scripts) {
  const size = gzipSync(readFileSync(`dist/${script}`)).length;
  total += size;
  console.log(`${(size / 1024).toFixed(1).padStart(8)} KB  ${script}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(8)} KB  initial JavaScript (gzip), budget ${BUDGET_KB} KB`);
if (total > BUDGET_KB * 1024) {
  console.error(`The initial bundle is over budget by ${((total - BUDGET_KB * 1024) / 1024).toFixed(1)} KB.`);
  process.exit(1);
}
