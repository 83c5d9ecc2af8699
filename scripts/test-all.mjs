#!/usr/bin/env node
// `npm test`: every kind of test in order — typecheck, lint, unit, component and model-based, API on PGlite,
// API on PostgreSQL (when TEST_DATABASE_URL is set), then a production build and the Playwright end-to-end suite.
// Prints the stage times, the ten slowest test files and a closing "N passed, N failed" line and exits non-zero when anything failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';

const reportDir = 'tmp/test-reports';
const GNU_TIME = '/usr/bin/time';
const runStarted = Date.now();
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });

// Which API test files also run on PGlite when the API stages run on PostgreSQL too (TEST_DATABASE_URL set, as in
// CI). PGlite is PostgreSQL itself (compiled to WebAssembly, with its own time-zone data and contrib builds), behind
// another driver and on one connection: a file whose SQL is plain queries over the product's rules (roles, tenancy,
// validation, figures) answers the same on both, so running it on PostgreSQL is enough. A file stays on both when what
// it checks can differ: the embedded database itself (migrations on it, backup/restore, the demo and first start),
// several things at once (job claims, leases, locks — one PGlite connection serialises what PostgreSQL's row locks
// decide), values through the driver (arrays, JSON, huge ids, NUL bytes, dates), time zones in SQL, ILIKE searches,
// the contrib extensions, throttles. A file in neither list runs on both: add new ones to a list when you know.
// Without TEST_DATABASE_URL (no PostgreSQL at hand) every API file runs on PGlite.
const API_FILES_ON_BOTH = {
  'backup.test.ts': 'backs up and restores the embedded database (skipped on PostgreSQL)',
  'geocoding-migration.test.ts': "a migration's backfill, applied to a database that has data (the embedded database migrates at every start)",
  'email-normal-form.test.ts': "migration 0095's SQL normal form of every stored email against JavaScript's (NFKC and lower-casing in each database), and the duplicates it deactivates",
  'optimization-runs-migration.test.ts': "migrations 0091-0092 renaming the job table and moving runs out of it, on a database with jobs (PGlite lists NOT NULL constraints by name, PostgreSQL 15 does not)",
  'app-secret.test.ts': 'the secret generated on the first start and kept in the database: the embedded database is what `npm start` runs on',
  'demo-working-data.test.ts': "the demo's first import, as `npm start` seeds it on the embedded database",
  'jobs.test.ts': 'distinct job claims under concurrency, leases and a clean shutdown handing a job back',
  'jobs-fairness.test.ts': "the claim query's per-business slots with several workers at once",
  'reminders.test.ts': 'exactly once with two workers and a dead one (claims), the reminder hour across DST in SQL',
  'imports-reliability.test.ts': "a worker dying mid-import and its job's lease taken over; bulk upserts retried",
  'hostile-input.test.ts': 'ids beyond the integers and malformed Unicode reaching each driver; concurrent demotions serialised by row locks',
  'security.test.ts': 'NUL bytes, huge ids and absurd dates through each driver; the reset-request throttle',
  'auth.test.ts': "the failed-login throttle's counters (upserts and time windows in SQL)",
  'users.test.ts': 'admins removing each other at once and eight invitation re-sends at once (row locks)',
  'clients.test.ts': 'ILIKE search and sorting',
  'clients-type-ahead.test.ts': 'ILIKE matches ordered by where the match starts',
  'nearby.test.ts': 'the cube and earthdistance extensions (PGlite has its own builds of them)',
  'dashboard.test.ts': "days and weeks in the business's time zone with AT TIME ZONE (PGlite has its own time-zone data)",
  'reports-appointments.test.ts': "a series of every day (generate_series) in the business's time zone",
  'sync-imports.test.ts': 'bulk upserts passing arrays and JSON through each driver',
  'practitioners-working-data.test.ts': 'text[] skills and JSON working hours through each driver',
  'operations.test.ts': "readiness reads the migrations and the job workers' heartbeats from the database",
  'demo-live-day.test.ts': "the demo's day walked through its steps on a fresh start",
  'eta-messages.test.ts': 'eight On my way taps at once record one step (a unique key decides)',
  'visit-steps.test.ts': 'one step for three requests at once with the same idempotency key',
  'care-rules.test.ts': "the rules of home care: the seeded property test's generated days checked on each database, as issue 24 asks (~15 s)",
  'replan-today.test.ts': "today and now in a whole-hour zone picked at run time (Etc/GMT±n), through AT TIME ZONE in SQL",
  'optimizations-roster.test.ts': "week runs that fit real rosters (issue 35): days skipped per practitioner, the call-in threshold, a week's applies",
  'live-desk.test.ts': "the live desk's push: PGlite's own NOTIFY delivery against PostgreSQL's LISTEN on a connection of its own",
  'optimization-explained.test.ts': "a run's seed in migration 0101's column and its plan number counted in SQL; the same seed's proposal, stored as JSON through each driver",
  'agreed-time-migration.test.ts': "migration 0099's backfill and trigger, applied to a database that has visits",
  'agreed-time.test.ts': "the client's agreed time through imports and exports over HTTP (migration 0099's trigger and backfill), five optimise → export → import cycles, Undo after an export",
  'qualifications.test.ts': "practitioners' appointment types (integer[]) imported in the import's transaction and read by every planner, as issue 35 asks on both",
  'bookings.test.ts': "bookings written through to the sandbox over HTTP (issue 36): a request_id repeat serialised by an advisory lock, the write's job claimed and retried, routes' JSON stops",
  'bookings-faults.test.ts': "a booking's write through the sandbox's faults (issue 36): the job queue's retries and an import linking the booked appointment in its page's transaction",
  'best-fit.test.ts': "best fit for a visit over the day's visits, leave and preferences (issue 36), as the day model reads them in each database",
  'booking-attacks.test.ts': "bursts of the same booking, fill and apply at once (advisory and row locks), another business's ids and huge bodies through each driver (issue 36)",
  'care-plans.test.ts': "care plans' weekdays (integer[]) through each driver, occurrences kept unique by a partial unique index (ON CONFLICT), the allocation job",
  'open-visits.test.ts': 'open visits filled and care plans applied, changed and paused through the bookings module and the Cliniko sandbox over HTTP (issue 36 asks both)',
};
const API_FILES_ON_POSTGRESQL_ONLY = {
  'fuzz.test.ts': 'a long random walk over every operation (~40 s); the hostile values it found are kept in hostile-input and security, which run on both',
  'faults-api-sigterm.test.ts': 'several processes on one PostgreSQL (skipped on PGlite anyway)',
  'faults-postgres-restart.test.ts': 'a PostgreSQL server restarted (skipped on PGlite anyway)',
  'faults-worker-kill.test.ts': 'several processes on one PostgreSQL (skipped on PGlite anyway)',
  'scale-out.test.ts': 'several processes on one PostgreSQL (skipped on PGlite anyway)',
  // Plain queries over the product's rules: roles, tenancy, validation, change logs, figures.
  'appointments.test.ts': 'listing, editing and cancelling visits',
  'appointments-types.test.ts': 'appointment types',
  'auth-sessions.test.ts': 'tokens and one-time links (the throttles are in auth and security)',
  'business-account.test.ts': 'account settings',
  'client-availability-history.test.ts': "availability by the visit's day",
  'custom-locations.test.ts': 'custom locations',
  'email-per-business.test.ts': 'emails unique within a business',
  'password-reset-answer.test.ts': 'the reset request answered before its email (no database difference)',
  'geocoding.test.ts': 'geocoders over HTTP and their cache',
  'geocoding-nominatim.test.ts': 'a geocoder over HTTP',
  'log-secrets.test.ts': "the product's log",
  'map-config.test.ts': 'configuration and headers, no database',
  'optimization-settings.test.ts': 'optimisation settings',
  'optimizations.test.ts': "optimisation runs (their job claims are in jobs and jobs-fairness)",
  'only-the-future.test.ts': 'which visits an optimisation or a move may change',
  'permissions.test.ts': 'every operation by every role',
  'practitioners.test.ts': "practitioners' colours",
  'public-availability.test.ts': 'the public availability page',
  'reports-activity.test.ts': 'the audit trail report (time-zone ranges are in dashboard and reports-appointments)',
  'reports-clients-missing-address.test.ts': 'a report',
  'reports-performance-geography.test.ts': 'reports',
  'reports-travel.test.ts': 'reports',
  'routes-sync.test.ts': 'routes and the PMS over HTTP',
  'subscription.test.ts': 'subscriptions and the Stripe webhook',
  'sync-arrival-times.test.ts': 'arrival times and the scheduler',
  'sync-exports.test.ts': 'exports over HTTP',
  'sync-settings.test.ts': 'sync settings and the scheduler',
  'sync-settings-ahead-days.test.ts': 'a check constraint',
  'tags.test.ts': 'tags',
  'travel.test.ts': 'travel legs from OSRM or the estimate, no SQL of note',
  'travel-summary.test.ts': 'the travel summary against a fresh computation',
  'visit-changes.test.ts': 'moving and inserting visits',
  'visit-note.test.ts': "a done visit's note written after Done",
  'balance-workload.test.ts': 'a reassign run sharing the work out',
  'client-practitioner-preferences.test.ts': 'preferred and excluded practitioners',
  'dashboard-overdue.test.ts': "the live desk's states and the overdue count (the dashboard's days in the time zone are in dashboard)",
  'double-handed.test.ts': 'two-carer visits',
  'leave.test.ts': "leave and the runs that respect it (the business's time zone is applied in code)",
  'leave-import.test.ts': 'leave from the sandbox over HTTP, upserted one block at a time (bulk upserts are in sync-imports)',
  'optimization-undo.test.ts': 'undoing an applied optimisation',
  'optimizations-week.test.ts': 'week runs',
  'optimizations-within-the-rules.test.ts': 'Apply checking a proposal against the rules (a stand-in search)',
  'reports-visit-verification.test.ts': 'a report (time-zone ranges are in dashboard and reports-appointments)',
};
const apiFiles = readdirSync('tests/api').filter((name) => name.endsWith('.test.ts'));
const listedTwice = Object.keys(API_FILES_ON_BOTH).filter((name) => name in API_FILES_ON_POSTGRESQL_ONLY);
const missing = [...Object.keys(API_FILES_ON_BOTH), ...Object.keys(API_FILES_ON_POSTGRESQL_ONLY)].filter((name) => !apiFiles.includes(name));
if (listedTwice.length || missing.length) {
  console.error(`scripts/test-all.mjs: fix the API file lists: ${[...listedTwice.map((name) => `${name} is in both`), ...missing.map((name) => `${name} does not exist`)].join('; ')}`);
  process.exit(1);
}
const postgresAtHand = Boolean(process.env.TEST_DATABASE_URL);
/** Restarts the PostgreSQL server under test (see the api-postgres stages). */
const RESTARTS_POSTGRESQL = 'faults-postgres-restart.test.ts';

const only = process.argv.slice(2);
// Two lanes run side by side, each one stage after another: the browser lane (the checks, the build, then the
// end-to-end suite, which spends much of its time waiting on its servers, the browser and the optimiser's timed
// searches) beside the node lane (unit, component and API, which keep the cores busy). One after the other, the cores
// sat half idle through the end-to-end suite; with the checks in the node lane it was the longer by ~220 s.
const stages = [
  // tsc and the lint (ESLint, then dependency-cruiser's dependency rules) each keep one core busy: side by side on two
  // cores they take about as long as typecheck alone.
  { name: 'typecheck', lane: 'browser', command: ['npm', 'run', '--silent', 'typecheck'], together: 'checks' },
  { name: 'lint', lane: 'browser', command: ['npm', 'run', '--silent', 'lint'], together: 'checks' },
  { name: 'unit', lane: 'node', vitest: 'unit' },
  { name: 'component', lane: 'node', vitest: 'component*' },
  {
    name: 'api-pglite', lane: 'node', vitest: 'api*', env: { TEST_DATABASE_URL: '' },
    // The files to run, named: Vitest's --exclude does not reach a project's own include, so it ran every file here.
    args: postgresAtHand ? apiFiles.filter((name) => !(name in API_FILES_ON_POSTGRESQL_ONLY)).map((name) => `tests/api/${name}`) : [],
  },
  // The file that restarts PostgreSQL runs alone after the others: another file's connections would die with it.
  {
    name: 'api-postgres', lane: 'node', vitest: 'api*', skipUnless: 'TEST_DATABASE_URL',
    args: apiFiles.filter((name) => name !== RESTARTS_POSTGRESQL).map((name) => `tests/api/${name}`),
  },
  { name: 'api-postgres-restart', lane: 'node', vitest: 'api*', skipUnless: 'TEST_DATABASE_URL', args: [`tests/api/${RESTARTS_POSTGRESQL}`] },
  { name: 'build', lane: 'browser', command: ['npx', 'vite', 'build'] },
  { name: 'bundle-size', lane: 'browser', command: ['node', 'scripts/bundle-size.mjs'] },
  { name: 'e2e', lane: 'browser', vitest: 'e2e' },
].filter((stage) => only.length === 0 || only.includes(stage.name));

const totals = { passed: 0, failed: 0, skipped: 0 };
const failedStages = [];
const failedTests = [];
const fileTimes = [];
const stageTimes = [];

/**
 * A failure as a CI log's tail should show it: the message, the diff (what was received, where an assertion
 * truncates it to "[ Array(1) ]"), and the test file's line it failed on; not the library frames.
 */
function failureInBrief(message) {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line));
  const told = (firstFrame === -1 ? lines : lines.slice(0, firstFrame)).slice(0, 24);
  const where = lines.slice(Math.max(firstFrame, 0)).find((line) => /^\s+at .*tests\//.test(line));
  return [...told, ...(where ? [where.trim()] : [])].map((line) => line.trimEnd()).join('\n    ');
}

/** Runs a stage's command: its output straight through, or kept and answered when `quiet` (stages run together). */
function run(stage, command, quiet) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...stage.env } });
    let output = '';
    child.stdout?.on('data', (chunk) => { output += chunk; });
    child.stderr?.on('data', (chunk) => { output += chunk; });
    child.on('close', (status) => resolve({ status, output }));
  });
}

async function runStage(stage, quiet) {
  const started = Date.now();
  const report = `${reportDir}/${stage.name}.json`;
  const command = stage.vitest
    ? ['npx', 'vitest', 'run', '--project', stage.vitest, '--reporter=default', '--reporter=json', `--outputFile=${report}`, ...(stage.args ?? [])]
    : stage.command;
  // With GNU time at hand, the stage's CPU time too (user + system, its processes and theirs; not a database server's):
  // with stages side by side, wall times alone do not say which stage costs what.
  const cpuFile = `${reportDir}/${stage.name}.cpu`;
  const result = await run(stage, existsSync(GNU_TIME) ? [GNU_TIME, '-f', '%U %S', '-o', cpuFile, ...command] : command, quiet);
  const cpu = existsSync(cpuFile) ? readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').reduce((sum, part) => sum + Number(part), 0) : null;
  return { ...result, report, seconds: ((Date.now() - started) / 1000).toFixed(1), cpu: Number.isFinite(cpu) ? cpu.toFixed(0) : null };
}

function header(stage) {
  const files = stage.args?.length ? ` (${stage.args.length} of the ${apiFiles.length} API files${stage.name === 'api-pglite' ? '; the others on PostgreSQL only: see API_FILES_ON_POSTGRESQL_ONLY' : ''})` : '';
  return `\n=== ${stage.name}${files}`;
}

function record(stage, { status, report, seconds, cpu }) {
  if (stage.vitest && existsSync(report)) {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += summary.numPassedTests;
    totals.failed += summary.numFailedTests;
    totals.skipped += summary.numPendingTests + summary.numTodoTests;
    for (const file of summary.testResults) {
      fileTimes.push({ stage: stage.name, file: file.name.replace(`${process.cwd()}/`, ''), seconds: (file.endTime - file.startTime) / 1000 });
      for (const test of file.assertionResults) {
        if (test.status === 'failed') failedTests.push(`${stage.name}: ${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}\n    ${failureInBrief(test.failureMessages[0] ?? '')}`);
      }
    }
    if (summary.numTotalTests === 0) {
      console.log(`${stage.name}: no tests ran`);
      failedStages.push(stage.name);
      return;
    }
  } else if (!stage.vitest) {
    // A check stage counts as one test.
    if (status === 0) totals.passed += 1; else totals.failed += 1;
  }
  if (status !== 0) {
    failedStages.push(stage.name);
    if (stage.vitest && !failedTests.some((line) => line.startsWith(`${stage.name}: `))) {
      failedTests.push(`${stage.name}: no test failed, yet the run did (an unhandled error or a crash: see "Unhandled Errors" in its output)`);
    }
  }
  const time = `${seconds} s${cpu === null ? '' : ` (CPU ${cpu} s)`}`;
  console.log(`=== ${stage.name}: ${status === 0 ? 'ok' : 'FAILED'} in ${time}`);
  stageTimes.push(`${stage.name} ${time}`);
}

const runnable = stages.filter((stage) => {
  if (stage.skipUnless && !process.env[stage.skipUnless]) {
    console.log(`\n=== ${stage.name}: skipped (${stage.skipUnless} is not set)`);
    return false;
  }
  return true;
});
const lanes = [...new Set(runnable.map((stage) => stage.lane))].map((lane) => runnable.filter((stage) => stage.lane === lane));
// A stage's output goes straight through when nothing runs beside it, else it is kept and shown whole when it ends.
const quiet = lanes.length > 1 || runnable.some((stage) => stage.together);

async function runLane(lane) {
  for (let index = 0; index < lane.length;) {
    const stage = lane[index];
    const group = stage.together ? lane.filter((other) => other.together === stage.together) : [stage];
    index += group.length;
    if (!quiet) console.log(header(stage));
    else console.log(`\n=== ${group.map((member) => member.name).join(' and ')} started${group.length > 1 ? ', side by side' : ''}`);
    await Promise.all(group.map(async (member) => {
      const result = await runStage(member, quiet);
      if (quiet) {
        console.log(header(member));
        process.stdout.write(result.output);
      }
      record(member, result);
    }));
  }
}
await Promise.all(lanes.map(runLane));

console.log(`\nStage times: ${stageTimes.join(', ')}; the whole run ${((Date.now() - runStarted) / 1000).toFixed(0)} s`);
console.log('Ten slowest test files:');
for (const { stage, file, seconds } of fileTimes.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
  console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${stage}: ${file}`);
}

// Repeated at the end, where a CI log's tail shows it.
if (failedTests.length) console.log(`\nFailed tests:\n${failedTests.map((line) => `  ${line}`).join('\n')}`);
console.log(failedStages.length ? `\nFailed stages: ${failedStages.join(', ')}` : '\nAll stages passed.');
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length ? 1 : 0);
