/**
 * Home-care benchmark: npm run bench:homecare -- [--budget 2] [--iters N] [--scales 1,2,4 | --scales 320/40,1000/120] [--scale-budget] [--seed 7 | --seed 7,8,9]
 * A scale is a factor of 320 visits / 40 practitioners, or visits/practitioners.
 * --scale-budget multiplies the search budget by the scale (2 s at 1×, 8 s at 4×).
 * --iters N stops each search after N iterations instead of the time budget (reproducible, and comparable between
 * builds on a busy machine: compare the CPU seconds the same iterations took).
 * Generates Brisbane days (40 practitioners, 320 visits at scale 1; one day per seed) and solves each with the default
 * haversine travel model, every plan verified by the checker:
 * - keep practitioners (as a run that keeps them): each visit stays with its booked practitioner; the booked travel
 *   against the plan's, and the visits the plan cannot route;
 * - reassign, the price of each objective term: the plan of the travel-only objective (the "shortest_travel" preset),
 *   of the default preset ("balanced") and of each term alone on top of travel-only, at the weight the product gives
 *   it (optimization-settings: presets.ts, objectiveOf): travel hours, each term's own measure and the travel it costs
 *   over travel-only. Lateness and overtime price nothing while availability is hard and no overtime is allowed (the
 *   product's defaults), so they are measured on the same day made soft: visits may start up to 30 minutes after
 *   their window (the default max_lateness_minutes) and days may end 30 minutes late, against travel-only on it.
 */
import { checkSolution } from '../server/src/optimizer/checker';
import { meanWorkingSeconds, planOf } from '../server/src/optimizer/core/start';
import { solve } from '../server/src/optimizer/solve';
import { HaversineProvider } from '../server/src/optimizer/travel/haversine';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import type { Problem, Solution, TravelMatrix } from '../server/src/optimizer/types';
import { DEFAULT_OPTIMIZATION_SETTINGS, objectiveOf, PRESET_WEIGHTS, type OptimizationWeights } from '../server/src/modules/optimization-settings';
import { bookedSolution, generateHomecareDay } from './lib/homecare';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const budgetS = Number(arg('budget') ?? 2);
/** Each scale's visits and practitioners, and its factor of the 320 / 40 day. */
const scales = (arg('scales') ?? '1,2,4').split(',').map((entry) => {
  const [visits, practitioners] = entry.includes('/') ? entry.split('/').map(Number) : [320 * Number(entry), 40 * Number(entry)];
  return { visits, practitioners, factor: visits / 320 };
});
const seeds = (arg('seed') ?? '7').split(',').map(Number);
const scaleBudget = process.argv.includes('--scale-budget');
const maxIterations = arg('iters') ? Number(arg('iters')) : undefined;

/** Minutes late a visit may start, and minutes a day may end after its shift, on the day made soft. */
const SOFT_MINUTES = 30;

interface Objective {
  label: string;
  weights: OptimizationWeights;
  /** The balance weight when the day is balanced (the settings' balance_weight), else 0. */
  balance?: number;
  /** Measured on the day made soft (lateness and overtime allowed), against travel-only on it. */
  soft?: boolean;
}
const travelOnly = PRESET_WEIGHTS.shortest_travel;
const balanced = PRESET_WEIGHTS.balanced;
const OBJECTIVES: Objective[] = [
  { label: 'travel only', weights: travelOnly },
  { label: 'balanced (default)', weights: balanced },
  { label: `+ continuity ${balanced.continuity}`, weights: { ...travelOnly, continuity: balanced.continuity } },
  { label: 'continuity preset', weights: PRESET_WEIGHTS.continuity },
  { label: `+ balance ${DEFAULT_OPTIMIZATION_SETTINGS.balance_weight}`, weights: travelOnly, balance: DEFAULT_OPTIMIZATION_SETTINGS.balance_weight },
  { label: 'soft: travel only', weights: travelOnly, soft: true },
  { label: `soft: + lateness ${balanced.lateness}`, weights: { ...travelOnly, lateness: balanced.lateness }, soft: true },
  { label: `soft: + overtime ${balanced.overtime}`, weights: { ...travelOnly, overtime: balanced.overtime }, soft: true },
  { label: 'soft: balanced (default)', weights: balanced, soft: true },
];

/** The generated day with an objective's weights, as a run's problem carries them (problem.ts). */
function problemFor(day: Problem, objective: Objective): Problem {
  const engine = objectiveOf(objective.weights, objective.balance ?? 0);
  return {
    ...day,
    weights: engine.weights,
    practitioners: day.practitioners.map((p) => ({
      ...p, costPerHour: engine.costPerHour, costPerKm: engine.costPerKm, ...(objective.soft ? { maxOvertimeMinutes: SOFT_MINUTES } : {}),
    })),
    visits: objective.soft ? day.visits.map((v) => (v.timeWindows ? { ...v, allowLate: true, maxLatenessMinutes: SOFT_MINUTES } : v)) : day.visits,
  };
}

/** Keeping practitioners: every visit pinned to its booked practitioner. */
const keepingPractitioners = (problem: Problem): Problem => ({
  ...problem,
  visits: problem.visits.map((v) => ({ ...v, pinnedPractitionerId: v.previousPractitionerId })),
});

interface Solved { solution: Solution; cpu: number }
async function solveTimed(problem: Problem, matrix: TravelMatrix, scaleFactor: number): Promise<Solved> {
  const cpu0 = process.cpuUsage();
  const solution = await solve(problem, {
    travel: matrix,
    ...(maxIterations ? { maxIterations } : { timeBudgetMs: budgetS * 1000 * (scaleBudget ? scaleFactor : 1) }),
    seed: 1,
  });
  const used = process.cpuUsage(cpu0);
  return { solution, cpu: (used.user + used.system) / 1e6 };
}

/**
 * What a plan gives each term: travel, visits kept with their booked practitioner, working time (its spread, as the
 * proposal shows it, and its standard deviation, which is what the balance term lowers), lateness and overtime.
 */
function measures(problem: Problem, solution: Solution, matrix: TravelMatrix) {
  const check = checkSolution(problem, solution, matrix);
  const booked = new Map(problem.visits.map((v) => [v.id, v.previousPractitionerId]));
  const kept = solution.routes.reduce((a, r) => a + r.stops.filter((s) => booked.get(s.visitId) === r.practitionerId).length, 0);
  const working = solution.routes.filter((r) => r.stops.length).map((r) => r.arriveEnd - r.departStart);
  return {
    travel: check.travelTime,
    kept,
    spread: working.length ? Math.max(...working) - Math.min(...working) : 0,
    deviation: standardDeviation(working),
    lateMinutes: check.lateness / 60,
    overtimeMinutes: check.overtime / 60,
    feasible: check.feasible ? 'yes' : `NO: ${check.errors.slice(0, 3).join('; ')}`,
  };
}

function standardDeviation(values: number[]): number {
  if (!values.length) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
}

const byReason = (solution: Solution) => {
  const reasons = new Map<string, number>();
  for (const u of solution.unassigned) reasons.set(u.reason, (reasons.get(u.reason) ?? 0) + 1);
  return [...reasons].map(([r, c]) => `${r} ${c}`).join(', ');
};
const hours = (s: number) => (s / 3600).toFixed(1);
const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;

console.log(
  `Home-care benchmark (Brisbane, haversine × 1.35 circuity, banded speeds), search budget ${maxIterations ? `${maxIterations} iterations` : `${budgetS}s${scaleBudget ? ' × scale' : ''}`}, search seed 1`,
);
for (const scale of scales) {
  for (const seed of seeds) {
    const day = generateHomecareDay(scale.practitioners, scale.visits, seed);
    const { visits, practitioners } = day.problem;
    const matrix = await new HaversineProvider().matrix(problemLocations(day.problem));
    const booked = checkSolution(day.problem, bookedSolution(day), matrix);
    console.log(
      `\nseed ${seed}: ${practitioners.length} practitioners, ${visits.length} visits, booked travel ${hours(booked.travelTime)} h,` +
        ` booked day feasible ${booked.feasible ? 'yes' : `NO: ${booked.errors.slice(0, 3).join('; ')}`}`,
    );

    const keepProblem = keepingPractitioners(problemFor(day.problem, OBJECTIVES[1]));
    const keep = await solveTimed(keepProblem, matrix, scale.factor);
    const keepCheck = measures(keepProblem, keep.solution, matrix);
    console.log(
      `  keep practitioners: travel ${hours(keepCheck.travel)} h, unassigned ${keep.solution.unassigned.length} (${percent(keep.solution.unassigned.length, visits.length)})` +
        `${keep.solution.unassigned.length ? ` by reason: ${byReason(keep.solution)}` : ''}; cpu ${keep.cpu.toFixed(1)} s; feasible ${keepCheck.feasible}`,
    );

    console.log('  reassign                  travel h  price   kept booked  spread h  sd min  late min  overtime min  unassigned  iterations  cpu s  feasible');
    // Travel-only on the day as generated, and on the day made soft: each is the first objective of its kind.
    const baseTravel = new Map<boolean, number>();
    for (const objective of OBJECTIVES) {
      const plain = problemFor(day.problem, objective);
      // As a run balances (optimizations/job.ts): each day pulled towards the mean working day as booked.
      const problem = objective.balance ? { ...plain, balanceTargetSeconds: meanWorkingSeconds(plain, matrix, planOf(bookedSolution(day))) } : plain;
      const { solution, cpu } = await solveTimed(problem, matrix, scale.factor);
      const m = measures(problem, solution, matrix);
      const soft = objective.soft ?? false;
      if (!baseTravel.has(soft)) baseTravel.set(soft, m.travel);
      const price = (m.travel - baseTravel.get(soft)!) / baseTravel.get(soft)!;
      console.log(
        `  ${objective.label.padEnd(24)}${hours(m.travel).padStart(9)}${`${price >= 0 ? '+' : ''}${(price * 100).toFixed(1)}%`.padStart(8)}` +
          `${String(m.kept).padStart(13)}${hours(m.spread).padStart(10)}${(m.deviation / 60).toFixed(0).padStart(8)}${m.lateMinutes.toFixed(0).padStart(10)}${m.overtimeMinutes.toFixed(0).padStart(14)}` +
          `${String(solution.unassigned.length).padStart(12)}${String(solution.stats.iterations).padStart(12)}${cpu.toFixed(1).padStart(7)}  ${m.feasible}`,
      );
    }
  }
}
