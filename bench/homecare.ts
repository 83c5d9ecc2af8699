/**
 * Home-care benchmark: npm run bench:homecare -- [--budget 2] [--iters N] [--scales 1,2,4] [--scale-budget] [--seed 7]
 * --scale-budget multiplies the search budget by the scale (2 s at 1×, 8 s at 4×).
 * --iters N stops each search after N iterations instead of the time budget (reproducible, and comparable between
 * builds on a busy machine: compare the CPU seconds the same iterations took).
 * Generates Brisbane days (40 practitioners, 320 visits at scale 1), solves each with the default
 * haversine travel model and reports travel time of the booking system's assignment vs. the plan,
 * unassigned visits, continuity, runtime (matrix + search), all verified by the checker.
 */
import { checkSolution } from '../server/src/optimizer/checker';
import { solve } from '../server/src/optimizer/solve';
import { HaversineProvider } from '../server/src/optimizer/travel/haversine';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import type { Problem, TravelMatrix } from '../server/src/optimizer/types';
import { generateHomecareDay } from './lib/homecare';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const budgetS = Number(arg('budget') ?? 2);
const scales = (arg('scales') ?? '1,2,4').split(',').map(Number);
const seed = Number(arg('seed') ?? 7);
const scaleBudget = process.argv.includes('--scale-budget');
const maxIterations = arg('iters') ? Number(arg('iters')) : undefined;

/** Travel time of the booked routes, each in booked order from start to end location. */
function bookedTravel(problem: Problem, matrix: TravelMatrix, initial: Map<string, string[]>): number {
  const vIndex = new Map(problem.visits.map((v, i) => [v.id, i]));
  const n = problem.visits.length;
  let total = 0;
  problem.practitioners.forEach((p, k) => {
    const ids = initial.get(p.id) ?? [];
    if (!ids.length) return;
    let prev = n + 2 * k;
    for (const id of ids) {
      const i = vIndex.get(id)!;
      total += matrix.durations[prev * matrix.size + i];
      prev = i;
    }
    total += matrix.durations[prev * matrix.size + n + 2 * k + 1];
  });
  return total;
}

const hours = (s: number) => (s / 3600).toFixed(1);
console.log(
  `Home-care benchmark (Brisbane, haversine × 1.35 circuity, banded speeds), search budget ${maxIterations ? `${maxIterations} iterations` : `${budgetS}s${scaleBudget ? ' × scale' : ''}`}, seed ${seed}`,
);
console.log('scale  pract  visits  booked travel h  planned travel h  saved   unassigned  kept prev  iterations  matrix s  total s  cpu s  feasible');
for (const scale of scales) {
  const day = generateHomecareDay(40 * scale, 320 * scale, seed);
  const t0 = performance.now();
  const matrix = await new HaversineProvider().matrix(problemLocations(day.problem));
  const tMatrix = (performance.now() - t0) / 1000;
  const cpu0 = process.cpuUsage();
  const sol = await solve(day.problem, {
    travel: matrix,
    ...(maxIterations ? { maxIterations } : { timeBudgetMs: budgetS * 1000 * (scaleBudget ? scale : 1) }),
    seed: 1,
  });
  const cpuUsed = process.cpuUsage(cpu0);
  const cpu = (cpuUsed.user + cpuUsed.system) / 1e6;
  const total = (performance.now() - t0) / 1000;
  const check = checkSolution(day.problem, sol, matrix);
  const before = bookedTravel(day.problem, matrix, day.initial);
  const prev = new Map(day.problem.visits.map((v) => [v.id, v.previousPractitionerId]));
  const kept = sol.routes.reduce((a, r) => a + r.stops.filter((s) => prev.get(s.visitId) === r.practitionerId).length, 0);
  console.log(
    `${String(scale).padStart(4)}x ${String(day.problem.practitioners.length).padStart(6)} ${String(day.problem.visits.length).padStart(7)}` +
      `${hours(before).padStart(17)}${hours(check.travelTime).padStart(18)}${(((before - check.travelTime) / before) * 100).toFixed(0).padStart(6)}%` +
      `${String(sol.unassigned.length).padStart(12)}${String(kept).padStart(11)}${String(sol.stats.iterations).padStart(12)}${tMatrix.toFixed(2).padStart(10)}${total.toFixed(2).padStart(9)}${cpu.toFixed(2).padStart(7)}  ` +
      `${check.feasible ? 'yes' : `NO: ${check.errors.slice(0, 3).join('; ')}`}`,
  );
  if (sol.unassigned.length) {
    const reasons = new Map<string, number>();
    for (const u of sol.unassigned) reasons.set(u.reason, (reasons.get(u.reason) ?? 0) + 1);
    console.log(`       unassigned by reason: ${[...reasons].map(([r, c]) => `${r} ${c}`).join(', ')}`);
  }
}
