/**
 * Solomon VRPTW benchmark:
 *   npm run bench:vrptw -- [--budget 1.5] [--threads 1] [--dir path] [--only C101,R202] [--seed 1]
 * Gehring–Homberger: --dir ../shared/bench/vrptw/homberger_1000 --budget 30 --only R1_10_1,C1_10_1 (same format and bks.csv).
 * --threads N solves each instance on N worker threads at once (OptimizerPool: seeds seed..seed+N-1, meeting
 * four times to continue from the best of them);
 * instances still run one after another and each one's own wall time is reported.
 * Solves each instance one at a time with the given budget (seconds; or --iters N for a fixed,
 * load-independent number of search iterations), verifies it with the independent
 * checker and prints distance, vehicles, gap to the distance-only best known, wall time.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSolution } from '../server/src/optimizer/checker';
import { solve } from '../server/src/optimizer/solve';
import { OptimizerPool } from '../server/src/optimizer/worker';
import { euclideanMatrix } from '../server/src/optimizer/travel/euclidean';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import { loadBks, loadSolomon } from './lib/solomon';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const budgetS = Number(arg('budget') ?? 1.5);
const dir = path.resolve(arg('dir') ?? path.resolve(repoRoot, 'bench/instances/solomon'));
const only = arg('only')?.split(',').map((s) => s.trim().toUpperCase());
const seed = Number(arg('seed') ?? 1);
const maxIterations = arg('iters') ? Number(arg('iters')) : undefined;
const threads = Number(arg('threads') ?? 1);
const pool = threads > 1 ? new OptimizerPool(threads) : null;
if (pool) {
  // Load and warm the workers before timing anything.
  const warm = loadSolomon(path.join(dir, readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.txt')).sort()[0]));
  await pool.solve(warm.problem, { timeBudgetMs: 300 });
}
const tuning = arg('tuning') ? (JSON.parse(arg('tuning')!) as Record<string, number>) : undefined;

const bksPath = path.join(dir, 'bks.csv');
const bks = existsSync(bksPath) ? loadBks(bksPath) : new Map();
const files = readdirSync(dir)
  .filter((f) => f.toLowerCase().endsWith('.txt'))
  .filter((f) => !only || only.includes(path.basename(f, path.extname(f)).toUpperCase()))
  .sort();
if (!files.length) {
  console.error(`no instances found in ${dir}`);
  process.exit(1);
}

/** Solomon C101 → C1, Gehring–Homberger C1_10_1 → C1. */
const instanceClass = (name: string) => (name.includes('_') ? name.split('_')[0] : name.replace(/\d{2}$/, ''));
const pad = (s: string | number, n: number) => String(s).padStart(n);
const budgetText = maxIterations ? `${maxIterations} iterations` : `${budgetS}s`;
console.log(
  `VRPTW benchmark: ${files.length} instances from ${dir}, budget ${budgetText} per instance, seed ${seed}, ${threads} thread(s)`,
);
console.log(
  `${'instance'.padEnd(10)}${pad('distance', 11)}${pad('veh', 5)}${pad('bks', 10)}${pad('gap %', 8)}${pad('time s', 8)}${pad('cpu s', 7)}${pad('iters', 9)}${pad('rss MB', 8)}  feasible`,
);

/** Peak resident memory of this process so far (worker threads included), in MB. */
const rssMB = () => Math.round(process.resourceUsage().maxRSS / 1024);

const gaps: number[] = [];
const byClass = new Map<string, number[]>();
const times: number[] = [];
/** CPU seconds of this process per instance: with --iters, a load-independent measure of speed. */
const cpus: number[] = [];
let vehicles = 0;
let failures = 0;
for (const file of files) {
  const name = path.basename(file, path.extname(file)).toUpperCase();
  const inst = loadSolomon(path.join(dir, file));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const matrix = euclideanMatrix(problemLocations(inst.problem));
  const sol = await (pool ? pool.solve.bind(pool) : solve)(inst.problem, {
    travel: matrix,
    timeBudgetMs: maxIterations ? undefined : budgetS * 1000,
    maxIterations,
    seed,
    tuning,
  });
  const wall = (performance.now() - t0) / 1000;
  const cpuUsed = process.cpuUsage(cpu0);
  const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
  cpus.push(cpu);
  const check = checkSolution(inst.problem, sol, matrix);
  const complete = sol.unassigned.length === 0;
  const ok = check.feasible && complete;
  const used = sol.routes.filter((r) => r.stops.length).length;
  const best = bks.get(name)?.distance;
  const gap = best ? ((check.travelDistance - best) / best) * 100 : NaN;
  times.push(wall);
  if (ok) {
    vehicles += used;
    if (Number.isFinite(gap)) {
      gaps.push(gap);
      const cls = instanceClass(name);
      byClass.set(cls, [...(byClass.get(cls) ?? []), gap]);
    }
  } else failures++;
  console.log(
    `${name.padEnd(10)}${pad(check.travelDistance.toFixed(2), 11)}${pad(used, 5)}${pad(best?.toFixed(2) ?? '-', 10)}` +
      `${pad(Number.isFinite(gap) ? gap.toFixed(2) : '-', 8)}${pad(wall.toFixed(2), 8)}${pad(cpu.toFixed(2), 7)}${pad(sol.stats.iterations, 9)}${pad(rssMB(), 8)}  ${ok ? 'yes' : `NO (${complete ? check.errors[0] : `${sol.unassigned.length} unassigned`})`}`,
  );
}

const sorted = [...gaps].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
const median = sorted.length ? (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2 : NaN;
console.log('');
console.log(`instances: ${files.length}, feasible: ${files.length - failures}, failures: ${failures}`);
console.log(`gap %: mean ${mean(gaps).toFixed(3)}, median ${median.toFixed(3)}, worst ${(sorted.at(-1) ?? NaN).toFixed(3)}`);
console.log(`mean gap % by class: ${[...byClass].sort().map(([c, g]) => `${c} ${mean(g).toFixed(3)} (${g.length})`).join(', ')}`);
console.log(`at BKS (gap ≤ 0.01 %): ${gaps.filter((g) => g <= 0.01).length}`);
console.log(`total vehicles: ${vehicles}`);
console.log(`wall time s: mean ${mean(times).toFixed(3)}, max ${Math.max(...times).toFixed(3)}`);
console.log(`cpu time s (this process; not the workers with --threads): mean ${mean(cpus).toFixed(3)}, total ${cpus.reduce((a, b) => a + b, 0).toFixed(1)}`);
console.log(`peak memory (max RSS of the process): ${rssMB()} MB`);
await pool?.close();
