#!/usr/bin/env node
// `npm test`: every kind of test in order — typecheck, lint, unit, component and model-based, API on PGlite,
// API on PostgreSQL (when TEST_DATABASE_URL is set), then a production build and the Playwright end-to-end suite.
// Prints the stage times, the ten slowest test files and a closing "N passed, N failed" line and exits non-zero when anything failed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const reportDir = 'tmp/test-reports';
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

const only = process.argv.slice(2);
const stages = [
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npx', 'eslint', '.', '--max-warnings=0'] },
  { name: 'unit', vitest: 'unit' },
  { name: 'component', vitest: 'component' },
  { name: 'api-pglite', vitest: 'api', env: { TEST_DATABASE_URL: '' } },
  { name: 'api-postgres', vitest: 'api', skipUnless: 'TEST_DATABASE_URL' },
  { name: 'build', command: ['npx', 'vite', 'build'] },
  { name: 'bundle-size', command: ['node', 'scripts/bundle-size.mjs'] },
  { name: 'e2e', vitest: 'e2e' },
].filter((stage) => only.length === 0 || only.includes(stage.name));

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages = [];
const failedTests = [];
const fileTimes = [];
const stageTimes = [];

for (const stage of stages) {
  if (stage.skipUnless && !process.env[stage.skipUnless]) {
    console.log(`\n=== ${stage.name}: skipped (${stage.skipUnless} is not set)`);
    continue;
  }
  console.log(`\n=== ${stage.name}`);
  const started = Date.now();
  const report = `${reportDir}/${stage.name}.json`;
  const command = stage.vitest
    ? ['npx', 'vitest', 'run', '--project', stage.vitest, '--reporter=default', '--reporter=json', `--outputFile=${report}`]
    : stage.command;
  const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, ...stage.env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (stage.vitest && existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += summary.numPassedTests;
    totals.failed += summary.numFailedTests;
    totals.skipped += summary.numPendingTests + summary.numTodoTests;
    for (const file of summary.testResults) {
      fileTimes.push({ stage: stage.name, file: file.name.replace(`${process.cwd()}/`, ''), seconds: (file.endTime - file.startTime) / 1000 });
      for (const test of file.assertionResults) {
        if (test.status === 'failed') failedTests.push(`${stage.name}: ${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}\n    ${(test.failureMessages[0] ?? '').split('\n')[0]}`);
      }
    }
    if (summary.numTotalTests === 0) {
      console.log(`${stage.name}: no tests ran`);
      failedStages.push(stage.name);
      continue;
    }
  } else if (!stage.vitest) {
    // A check stage counts as one test.
    if (result.status === 0) totals.passed += 1; else totals.failed += 1;
  }
  if (result.status !== 0) {
    failedStages.push(stage.name);
    if (stage.vitest && !failedTests.some((line) => line.startsWith(`${stage.name}: `))) {
      failedTests.push(`${stage.name}: no test failed, yet the run did (an unhandled error or a crash: see "Unhandled Errors" in its output)`);
    }
  }
  console.log(`=== ${stage.name}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${seconds} s`);
  stageTimes.push(`${stage.name} ${seconds} s`);
}

console.log(`\nStage times: ${stageTimes.join(', ')}`);
console.log('Ten slowest test files:');
for (const { stage, file, seconds } of fileTimes.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${stage}: ${file}`);
}

// Repeated at the end, where a CI log's tail shows it.
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((line) => `  ${line}`).join('\n')}`);
console.log(failedStages.length ? `\nFailed stages: ${failedStages.join(', ')}` : '\nAll stages passed.');
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length ? 1 : 0);
