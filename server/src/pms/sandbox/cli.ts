/**
 * `npm run pms:sandbox`: serves the Cliniko-compatible sandbox until interrupted.
 * Environment: SANDBOX_PORT or PORT (default 8100), SANDBOX_HOST (default 127.0.0.1), SANDBOX_SEED,
 * SANDBOX_PATIENTS, SANDBOX_PRACTITIONERS, SANDBOX_WEEKS, SANDBOX_START_DATE (yyyy-MM-dd),
 * SANDBOX_RATE_LIMIT (requests per key per minute, default 200 like Cliniko; 0 = unlimited).
 */
import { startSandbox, SANDBOX_DEMO_API_KEY } from './server';

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw new Error(`${name}: must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

async function main() {
  const rateLimit = intFromEnv('SANDBOX_RATE_LIMIT') ?? 200;
  const sandbox = await startSandbox({
    port: intFromEnv('SANDBOX_PORT') ?? intFromEnv('PORT') ?? 8100,
    host: process.env.SANDBOX_HOST || '127.0.0.1',
    seed: intFromEnv('SANDBOX_SEED'),
    patients: intFromEnv('SANDBOX_PATIENTS'),
    practitioners: intFromEnv('SANDBOX_PRACTITIONERS'),
    weeks: intFromEnv('SANDBOX_WEEKS'),
    startDate: process.env.SANDBOX_START_DATE || undefined,
    faults: { rateLimitPerMinute: rateLimit === 0 ? null : rateLimit },
  });
  const { dataset } = sandbox;
  console.log(`Cliniko sandbox listening on ${sandbox.url}`);
  console.log(`  CLINIKO_BASE_URL=${sandbox.url}`);
  console.log(`  API key: ${SANDBOX_DEMO_API_KEY}`);
  console.log(
    `  data: ${dataset.businesses.length} businesses, ${dataset.practitioners.length} practitioners, ` +
      `${dataset.appointmentTypes.length} appointment types, ${dataset.patients.length} patients, ` +
      `${dataset.appointments.length} appointments (${dataset.firstDay} .. ${dataset.lastDay}, Australia/Brisbane), ` +
      `${dataset.unavailableBlocks.length} unavailable blocks`,
  );
  console.log(`  faults: GET/POST ${sandbox.origin}/__sandbox/faults (now ${JSON.stringify(sandbox.faults())})`);
  const stop = () => {
    sandbox.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
