/**
 * The engine before → after on the generated home-care days, in one run:
 *   npm run bench:engine-ab -- --before <checkout> [--iters 20000 | --budget 2] [--scales 320/40,1000/120] [--seed 7,8,9]
 * `--before` is another checkout of Rounds (e.g. `git worktree add ../before <commit>`, with node_modules linked); its
 * `server/src/optimizer/solve.ts` solves the same days as this tree's. The days, their travel (haversine, as
 * bench:homecare) and the checker are this tree's, so both plans are judged alike. Each day is solved keeping
 * practitioners and reassigning, with the travel-only objective (as the comparison with VROOM was made), search seed 1.
 * With `--iters` both searches run the same number of iterations (reproducible on a busy machine; the CPU seconds
 * compare their speed); with `--budget` the same seconds.
 * `--moved <weight per minute>`: each visit's agreedStart is its booked start and weights.moved the weight (an engine
 * without the price of moving ignores both); each line adds the minutes the visits start from their booked starts
 * (p50 / p90 / max over the day's routed visits) before → after.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkSolution } from '../server/src/optimizer/checker';
import { solve as solveAfter } from '../server/src/optimizer/solve';
import { HaversineProvider } from '../server/src/optimizer/travel/haversine';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import type { Problem, Solution, TravelMatrix } from '../server/src/optimizer/types';
import { objectiveOf, PRESET_WEIGHTS } from '../server/src/modules/optimization-settings';
import { generateHomecareDay } from './lib/homecare';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const beforeRoot = arg('before');
if (!beforeRoot) {
  console.error('--before <checkout> is required: the engine to compare with this one');
  process.exit(1);
}
const maxIterations = arg('budget') ? undefined : Number(arg('iters') ?? 20_000);
const budgetMs = Number(arg('budget') ?? 2) * 1000;
const scales = (arg('scales') ?? '320/40,1000/120').split(',').map((entry) => entry.split('/').map(Number) as [number, number]);
const seeds = (arg('seed') ?? '7,8,9').split(',').map(Number);
const movedWeight = arg('moved') === undefined ? undefined : Number(arg('moved'));

type Solve = typeof solveAfter;
const { solve: solveBefore } = (await import(pathToFileURL(path.resolve(beforeRoot, 'server/src/optimizer/solve.ts')).href)) as { solve: Solve };

/** The generated day with the travel-only objective, as a run's problem carries it. */
function travelOnly(problem: Problem, keepPractitioners: boolean, booked: Map<string, number>): Problem {
  const engine = objectiveOf(PRESET_WEIGHTS.shortest_travel, 0);
  const agreed = (v: Problem['visits'][number]) => (movedWeight === undefined ? v : { ...v, agreedStart: booked.get(v.id) });
  return {
    ...problem,
    weights: movedWeight === undefined ? engine.weights : { ...engine.weights, moved: movedWeight },
    practitioners: problem.practitioners.map((p) => ({ ...p, costPerHour: engine.costPerHour, costPerKm: engine.costPerKm })),
    visits: (keepPractitioners ? problem.visits.map((v) => ({ ...v, pinnedPractitionerId: v.previousPractitionerId })) : problem.visits).map(agreed),
  };
}

/** Minutes each routed visit starts from its agreed start: p50 / p90 / max. */
function movedMinutes(problem: Problem, solution: Solution): string {
  const agreed = new Map(problem.visits.map((v) => [v.id, v.agreedStart]));
  const minutes = solution.routes
    .flatMap((route) => route.stops)
    .filter((stop) => agreed.get(stop.visitId) !== undefined)
    .map((stop) => Math.abs(stop.start - agreed.get(stop.visitId)!) / 60)
    .sort((a, b) => a - b);
  const at = (q: number) => (minutes.length ? minutes[Math.min(minutes.length - 1, Math.floor(q * minutes.length))] : 0).toFixed(0);
  return `${at(0.5)}/${at(0.9)}/${minutes.length ? minutes[minutes.length - 1].toFixed(0) : 0}`;
}

async function run(solve: Solve, problem: Problem, matrix: TravelMatrix) {
  const cpu0 = process.cpuUsage();
  const solution: Solution = await solve(problem, { travel: matrix, seed: 1, ...(maxIterations ? { maxIterations } : { timeBudgetMs: budgetMs }) });
  const used = process.cpuUsage(cpu0);
  const check = checkSolution(problem, solution, matrix);
  return {
    travel: check.travelTime,
    unassigned: solution.unassigned.length,
    feasible: check.feasible,
    cpu: (used.user + used.system) / 1e6,
    moved: movedMinutes(problem, solution),
  };
}

const hours = (seconds: number) => (seconds / 3600).toFixed(2);
console.log(`Engine before (${path.resolve(beforeRoot)}) → after (this tree), travel-only objective, ${maxIterations ? `${maxIterations} iterations` : `${budgetMs / 1000} s`} per search, search seed 1`);
console.log('day                  mode      travel h before → after    Δ %   unassigned   cpu s before → after   feasible');
const ratios: number[] = [];
for (const [visits, practitioners] of scales) {
  for (const seed of seeds) {
    const day = generateHomecareDay(practitioners, visits, seed);
    const matrix = await new HaversineProvider().matrix(problemLocations(day.problem));
    const booked = new Map(day.booked.flatMap((route) => route.stops.map((stop) => [stop.visitId, stop.start] as const)));
    for (const keep of [true, false]) {
      const problem = travelOnly(day.problem, keep, booked);
      const before = await run(solveBefore, problem, matrix);
      const after = await run(solveAfter, problem, matrix);
      const delta = 100 * (after.travel / before.travel - 1);
      ratios.push(after.travel / before.travel);
      console.log(
        `${`${visits}/${practitioners} seed ${seed}`.padEnd(21)}${(keep ? 'keep' : 'reassign').padEnd(10)}`
          + `${`${hours(before.travel)} → ${hours(after.travel)}`.padEnd(25)}${delta.toFixed(2).padStart(6)}   `
          + `${`${before.unassigned} → ${after.unassigned}`.padEnd(13)}${`${before.cpu.toFixed(1)} → ${after.cpu.toFixed(1)}`.padEnd(23)}`
          + `${before.feasible ? 'yes' : 'NO'} / ${after.feasible ? 'yes' : 'NO'}`
          + (movedWeight === undefined ? '' : `   moved min p50/p90/max ${before.moved} → ${after.moved}`),
      );
    }
  }
}
ratios.sort((a, b) => a - b);
console.log(`median travel after / before: ${ratios[Math.floor(ratios.length / 2)].toFixed(4)} over ${ratios.length} plans`);
