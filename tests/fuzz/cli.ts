// `npm run fuzz -- --seed N --count M [--case K]`: the long contract-fuzzing run (see fuzzer.ts). --case replays one
// case of a run on a fresh server. Exits non-zero when anything failed, after printing each failing request.
import { parseArgs } from 'node:util';
import { describeFailure, runFuzz, startFuzzWorld } from './fuzzer';

const { values } = parseArgs({ options: { seed: { type: 'string' }, count: { type: 'string' }, case: { type: 'string' } } });
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const count = Number(values.count ?? 20_000);
const onlyCase = values.case !== undefined ? Number(values.case) : undefined;

const world = await startFuzzWorld();
console.log(`fuzzing ${world.baseUrl} with seed ${seed}, ${onlyCase !== undefined ? `case ${onlyCase}` : `${count} requests`}`);
const result = await runFuzz(world, { seed, count, onlyCase, onProgress: (sent) => process.stdout.write(`\r${sent} sent`) });
await world.close();
process.stdout.write('\n');
// One example of each kind of failure (operation, status and what was wrong), then how many there were in all.
const kinds = new Map<string, { example: typeof result.failures[number]; times: number }>();
for (const failure of result.failures) {
  const key = `${failure.request.operationId} ${failure.status} ${failure.problem.replace(/\/api\/\S+/, '').slice(0, 60)}`;
  const kind = kinds.get(key);
  if (kind) kind.times += 1; else kinds.set(key, { example: failure, times: 1 });
}
for (const { example, times } of kinds.values()) console.log(`${describeFailure(example)}${times > 1 ? `\n  (${times} times in this run)` : ''}\n`);
console.log(`seed ${seed}: ${result.sent} requests in ${result.seconds.toFixed(1)} s, statuses ${JSON.stringify(result.statuses)}, sessions restored ${result.sessionRestores} times`);
if (result.neverSucceeded.length) console.log(`never answered 2xx: ${result.neverSucceeded.join(', ')}`);
console.log(result.failures.length ? `${result.failures.length} failures` : 'no failures');
process.exit(result.failures.length ? 1 : 0);
