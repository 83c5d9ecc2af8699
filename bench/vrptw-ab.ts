/**
 * The engine's speed per iteration before → after on the Solomon instances, in one run:
 *   npx tsx bench/vrptw-ab.ts --before <dir> [--iters 20000] [--rounds 3] [--only C101,R101] [--seed 1]
 * `--before` is a directory holding another version's `server/src/optimizer` (e.g. `mkdir -p tmp/before && git archive
 * <commit> server/src/optimizer | tar -x -C tmp/before`, inside this tree so its imports resolve). Each instance is solved
 * by both engines with the same seed and number of iterations, alternating which goes first, `--rounds` times; the CPU
 * seconds of each solve are compared as a ratio after / before per instance and round (both in this one process, so a
 * busy machine slows both alike), and the median ratio is printed with the mean gap of each (same iterations: the same
 * search when the engines agree).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkSolution } from '../server/src/optimizer/checker';
import { solve as solveAfter } from '../server/src/optimizer/solve';
import { euclideanMatrix } from '../server/src/optimizer/travel/euclidean';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import { loadBks, loadSolomon } from './lib/solomon';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const beforeRoot = arg('before');
if (!beforeRoot) {
  console.error('--before <dir> is required: a directory holding the server/src/optimizer to compare with this one');
  process.exit(1);
}
const maxIterations = Number(arg('iters') ?? 20_000);
const rounds = Number(arg('rounds') ?? 3);
const seed = Number(arg('seed') ?? 1);
const only = arg('only')?.split(',').map((s) => s.trim().toUpperCase());
const dir = path.resolve(repoRoot, 'bench/instances/solomon');
type Solve = typeof solveAfter;
const { solve: solveBefore } = (await import(pathToFileURL(path.resolve(beforeRoot, 'server/src/optimizer/solve.ts')).href)) as { solve: Solve };

const bks = loadBks(path.join(dir, 'bks.csv'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.txt'))
  .filter((f) => !only || only.includes(path.basename(f, '.txt').toUpperCase()))
  .sort();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN;
};
async function run(solve: Solve, inst: ReturnType<typeof loadSolomon>, matrix: ReturnType<typeof euclideanMatrix>) {
  const cpu0 = process.cpuUsage();
  const sol = await solve(inst.problem, { travel: matrix, maxIterations, seed });
  const used = process.cpuUsage(cpu0);
  const check = checkSolution(inst.problem, sol, matrix);
  const best = bks.get(inst.name)?.distance ?? NaN;
  const ok = check.feasible && sol.unassigned.length === 0;
  return { cpu: (used.user + used.system) / 1e6, gap: ok ? ((check.travelDistance - best) / best) * 100 : NaN };
}

console.log(`Solomon, ${maxIterations} iterations per solve, seed ${seed}, ${rounds} rounds: before (${path.resolve(beforeRoot)}) → after (this tree)`);
console.log('instance   cpu s before → after   ratio   gap % before → after');
const ratios: number[] = [];
const gaps: { before: number[]; after: number[] } = { before: [], after: [] };
for (const file of files) {
  const inst = loadSolomon(path.join(dir, file));
  const matrix = euclideanMatrix(problemLocations(inst.problem));
  for (let round = 0; round < rounds; round++) {
    const beforeFirst = round % 2 === 0;
    const first = await run(beforeFirst ? solveBefore : solveAfter, inst, matrix);
    const second = await run(beforeFirst ? solveAfter : solveBefore, inst, matrix);
    const [before, after] = beforeFirst ? [first, second] : [second, first];
    ratios.push(after.cpu / before.cpu);
    if (round === 0) {
      gaps.before.push(before.gap);
      gaps.after.push(after.gap);
    }
    console.log(
      `${inst.name.padEnd(11)}${`${before.cpu.toFixed(2)} → ${after.cpu.toFixed(2)}`.padEnd(23)}${(after.cpu / before.cpu).toFixed(3).padEnd(8)}`
        + `${before.gap.toFixed(2)} → ${after.gap.toFixed(2)}`,
    );
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
console.log(`median cpu ratio after / before: ${median(ratios).toFixed(4)} over ${ratios.length} paired solves`);
console.log(`mean gap % (first round): before ${mean(gaps.before).toFixed(3)}, after ${mean(gaps.after).toFixed(3)}`);
