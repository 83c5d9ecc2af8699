#!/usr/bin/env node
// Lints the API descriptions with Redocly CLI (rules in redocly.yaml) and fails on any error, e.g. a key that is not
// an OpenAPI keyword. Usage: node scripts/lint-openapi.mjs [file.yaml …] (default: the contract and Cliniko's).
// Quiet when they pass; Redocly's own output (with the line of each problem) when not. It never uses the network:
// telemetry is off in redocly.yaml, the update check is turned off here, and scripts/no-network.mjs refuses any
// connection the process would open (a remote $ref, say) with a message.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const files = process.argv.slice(2);
if (files.length === 0) files.push('openapi/openapi.yaml', 'openapi/cliniko-openapi.yaml');
const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const noNetwork = fileURLToPath(new URL('./no-network.mjs', import.meta.url));
const config = fileURLToPath(new URL('../redocly.yaml', import.meta.url));

const run = spawnSync(process.execPath, ['--import', noNetwork, cli, 'lint', '--config', config, ...files], {
  encoding: 'utf8',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
});
if (run.status !== 0) {
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  console.error(`The API description check failed (${files.join(', ')}): fix the errors above.`);
  process.exit(run.status ?? 1);
}
console.log(`${files.join(', ')}: valid (Redocly CLI, redocly.yaml)`);
