/**
 * Cost of one route evaluation, the search's inner step: npm exec tsx bench/route-eval.ts -- [--seeds 7,8,9]
 * [--routes tmp/route-eval-routes.json] [--reps 5]
 * On the generated Brisbane days (bench/lib/homecare.ts, 320 visits / 40 practitioners), takes each day's routes from
 * a short solve (written to --routes on the first run and read from it afterwards, so that two builds time the same
 * routes), then times (1) simulateCost of every route with visits, and (2) RouteState.insertionDelta of every visit of
 * another route into every position of each route of a practitioner with a break (what an insertion scan asks),
 * reporting nanoseconds per evaluation (CPU time, median of --reps) and how many evaluations were feasible.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildModel } from '../server/src/optimizer/core/model';
import { RouteState, simulateCost } from '../server/src/optimizer/core/routes';
import { solve } from '../server/src/optimizer/solve';
import { HaversineProvider } from '../server/src/optimizer/travel/haversine';
import { problemLocations } from '../server/src/optimizer/travel/matrix';
import { generateHomecareDay } from './lib/homecare';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const seeds = (arg('seeds') ?? '7,8,9').split(',').map(Number);
const routesFile = path.resolve(arg('routes') ?? 'tmp/route-eval-routes.json');
const reps = Number(arg('reps') ?? 5);

const saved: Record<string, number[][]> = existsSync(routesFile) ? JSON.parse(readFileSync(routesFile, 'utf8')) : {};
const cpuNs = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) * 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log('seed  routes  with break  simulate ns/eval  feasible  insertion ns/eval  evaluations  feasible');
for (const seed of seeds) {
  const day = generateHomecareDay(40, 320, seed);
  const matrix = await new HaversineProvider().matrix(problemLocations(day.problem));
  if (!saved[seed]) {
    const sol = await solve(day.problem, { travel: matrix, maxIterations: 5000, seed: 1 });
    const index = new Map(day.problem.visits.map((v, i) => [v.id, i]));
    saved[seed] = sol.routes.map((r) => r.stops.map((s) => index.get(s.visitId)!));
    mkdirSync(path.dirname(routesFile), { recursive: true });
    writeFileSync(routesFile, JSON.stringify(saved));
  }
  const routes = saved[seed];
  const m = buildModel(day.problem, matrix);
  const rs = new RouteState(m);
  routes.forEach((visits, v) => rs.setRoute(v, visits));
  const withVisits = routes.map((_, v) => v).filter((v) => routes[v].length > 0);
  const withBreak = withVisits.filter((v) => m.breakDur[v] >= 0);
  const seqs = withVisits.map((v) => [m.startNode[v], ...routes[v], m.endNode[v]]);

  let simFeasible = 0;
  let inserts = 0;
  let insFeasible = 0;
  const simulateAll = () => {
    simFeasible = 0;
    for (let k = 0; k < seqs.length; k++) {
      if (simulateCost(m, withVisits[k], seqs[k], seqs[k].length, null) !== Infinity) simFeasible++;
    }
  };
  const insertAll = () => {
    inserts = 0;
    insFeasible = 0;
    for (const r of withBreak) {
      for (let c = 0; c < m.n; c++) {
        if (rs.routeOf[c] === r || m.extra[c * m.vehicles + r] === Infinity) continue;
        for (let i = 0; i <= rs.len[r]; i++) {
          inserts++;
          if (rs.insertionDelta(r, i, c, Infinity) !== Infinity) insFeasible++;
        }
      }
    }
  };
  const loops = 200;
  const simNs: number[] = [];
  const insNs: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    simNs.push(cpuNs(() => { for (let l = 0; l < loops; l++) simulateAll(); }) / (loops * seqs.length));
    insNs.push(cpuNs(() => insertAll()));
  }
  console.log(
    `${String(seed).padStart(4)}${String(withVisits.length).padStart(8)}${String(withBreak.length).padStart(12)}` +
      `${median(simNs).toFixed(0).padStart(17)}${String(simFeasible).padStart(10)}` +
      `${(median(insNs) / inserts).toFixed(0).padStart(19)}${String(inserts).padStart(13)}${String(insFeasible).padStart(10)}`,
  );
}
