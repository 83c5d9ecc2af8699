// Real processes for the fault tests: `npm run worker` processes (server/src/worker-main.ts) and a throwaway PostgreSQL
// server of the test's own, which it may stop and start again without touching the machine's shared one.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../e2e/support/server';

export interface WorkerProcess {
  child: ChildProcess;
  logs(): string;
  /** SIGTERM, then SIGKILL after 10 s; nothing when it has already exited. */
  stop(): Promise<void>;
}

/** Starts `npm run worker` on DATABASE_URL (with the other variables given) and waits until it has started. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/worker-main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const deadline = Date.now() + 60_000;
  while (!output.includes('"worker started"')) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the worker exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the worker did not start in time:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    logs: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export interface ThrowawayPostgres {
  /** The server's `postgres` database, to create test databases from. */
  url: string;
  /** `pg_ctl stop`; `immediate` is a crash (no checkpoint; the next start recovers from the WAL). */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops it (if running) and removes its files. */
  destroy(): void;
}

/** The newest PostgreSQL installed under /usr/lib/postgresql, or null when there is none. */
export function postgresBinaries(): string | null {
  try {
    const versions = readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    return versions.length ? join('/usr/lib/postgresql', versions[0], 'bin') : null;
  } catch {
    return null;
  }
}

/**
 * initdb and start a PostgreSQL server of its own on a free loopback port (trust authentication, its socket in its
 * own directory), run as the `postgres` OS user when the test runs as root.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const root = mkdtempSync(join(tmpdir(), 'rounds-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  mkdirSync(socketDir);
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    for (const path of [root, socketDir]) chownSync(path, uid, gid);
  }
  const run = (command: string, args: string[]) => {
    const full = join(bin, command);
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', full, ...args], { encoding: 'utf8' })
      : spawnSync(full, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
  };
  const port = await freePort();
  run('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  const start = () => run('pg_ctl', [
    '-D', dataDir, '-l', join(root, 'server.log'), '-w', '-t', '60',
    '-o', `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c shared_buffers=16MB`, 'start',
  ]);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop(mode = 'fast') {
      run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    start() {
      start();
      running = true;
    },
    destroy() {
      if (running) {
        try {
          run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop']);
        } catch {
          // already stopped
        }
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function postgresUser(): { uid: number; gid: number } {
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (result.status !== 0 || group.status !== 0) throw new Error('running as root needs a `postgres` OS user to run the throwaway PostgreSQL server');
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}
