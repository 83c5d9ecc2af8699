// Starts the real product (built SPA + API) on a free loopback port with a fresh embedded database and the demo
// data, exactly as `npm start` does, and stops it afterwards. Its log (at info, as in production) is searched on stop
// for secrets: a file whose run logged one fails.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_PASSWORD } from './browser';

export interface RunningProduct {
  url: string;
  /** The server process (tests that signal it, or watch it exit). */
  child: ChildProcess;
  /** Stops the product; throws when its log holds a secret (see secretsInLog). */
  stop(): Promise<void>;
  logs(): string;
  /** Secrets the test handled (passwords typed, links followed) that the log must not hold either. */
  keepOutOfLog(...secrets: string[]): void;
}

/** What a log must never show, whoever wrote it: credentials in headers, URLs or bodies, and the PMS API key. */
const SECRET_SHAPES: Array<[string, RegExp]> = [
  ['a Bearer token', /Bearer\s+[A-Za-z0-9._~+/-]{8,}/],
  ['Basic credentials', /Basic\s+[A-Za-z0-9+/]{8,}=*/],
  ['a token in a URL', /[?&](token|access_token|api_key|password)=(?!\[redacted\])[^&\s"]/i],
  ['a password or API key field', /"(password|current_password|new_password|api_key)"\s*:\s*"(?!\[redacted\])/],
  ['a PMS API key', /\b[A-Za-z0-9]{16,}-au\d\b/],
];

/** The secrets a log holds, by what they are: known ones (raw or URL-encoded) and any of SECRET_SHAPES. */
export function secretsInLog(log: string, known: Iterable<string>): string[] {
  const found = SECRET_SHAPES.filter(([, shape]) => shape.test(log)).map(([what, shape]) => `${what}: …${shape.exec(log)![0].slice(0, 12)}…`);
  for (const secret of known) {
    if (log.includes(secret) || log.includes(encodeURIComponent(secret))) found.push(`the secret beginning ${secret.slice(0, 3)}…`);
  }
  return found;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * `dataDir`: an embedded database to start on and keep when stopped (a test that stops the product to run an operator
 * command on its database, then starts it again); by default a new one, removed when stopped.
 * `api: true`: the API only — the app is not built when missing (API tests that need real processes).
 * `nodeArgs`: more options for node (a benchmark's `--cpu-prof`).
 */
export async function startProduct(
  env: Record<string, string> = {}, options: { dataDir?: string; api?: boolean; nodeArgs?: string[] } = {},
): Promise<RunningProduct> {
  if (!options.api && !existsSync('dist/index.html')) {
    const build = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'rounds-e2e-'));
  if (!options.dataDir && startsFromDemo(env)) cpSync(await seededDemoDataDir(), dataDir, { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'server/src/main.ts'], {
    env: {
      ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: 'true',
      PUBLIC_URL: url, LOG_LEVEL: 'info', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });

  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    try {
      const response = await fetch(`${url}/api/config`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  if (Date.now() >= deadline) throw new Error(`the server did not start in time:\n${output}`);

  const secrets = new Set([DEMO_PASSWORD]);
  return {
    url,
    child,
    logs: () => output,
    keepOutOfLog: (...more) => more.forEach((secret) => secrets.add(secret)),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      const leaks = secretsInLog(output, secrets);
      if (leaks.length) throw new Error(`The product's log holds secrets: ${leaks.join('; ')}`);
    },
  };
}

/** A product on its own embedded database that would seed the demo on start (what most e2e files start). */
function startsFromDemo(env: Record<string, string>): boolean {
  return !env.DATABASE_URL && env.SEED_DEMO !== 'false' && env.START_SANDBOX !== 'false';
}

const DEMO_TEMPLATES = 'tmp/e2e-demo-templates';

/** Every file's content under these paths, for the template's name: a change to the seed or schema makes a new one. */
function fingerprintOf(paths: string[]): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) visit(join(path, name));
    else hash.update(path).update(readFileSync(path));
  };
  paths.forEach(visit);
  return hash.digest('hex').slice(0, 16);
}

/**
 * An embedded database on which the product has seeded the demo (a real first import from the sandbox), made once a
 * day per version of the seed: each file starts on a copy of it, as if it had seeded its own (the sandbox's data and
 * key are the same at every start), instead of spending its first seconds importing. The day is the demo's, in
 * Brisbane, whose visits the sandbox generates around it (a UTC date kept yesterday's template from 14:00 UTC on).
 */
export async function seededDemoDataDir(): Promise<string> {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Brisbane' }).format(new Date());
  const template = join(DEMO_TEMPLATES, `${day}-${fingerprintOf(['server/src/db/migrations', 'server/src/demo', 'server/src/pms/sandbox'])}`);
  if (existsSync(template)) return template;
  const seeding = mkdtempSync(join(tmpdir(), 'rounds-e2e-template-'));
  const product = await startProduct({}, { dataDir: seeding });
  await product.stop();
  cpSync(seeding, `${template}.partial`, { recursive: true });
  renameSync(`${template}.partial`, template);
  rmSync(seeding, { recursive: true, force: true });
  return template;
}
