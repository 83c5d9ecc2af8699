// `npm run bench:password-reset`: how long a password reset request takes to be answered for an email with an account
// against one without, on embedded PGlite (PostgreSQL with TEST_DATABASE_URL), with the outbox as the mail server and
// with one that takes MAIL_DELAY_MS (default 20) per email. The answer comes before the lookup and the email, so the
// two should take the same time: the ratio of the medians, in one run, is the figure (a timing gap tells which emails
// have accounts). Each request asks for another address, so no throttle or email cap is reached. The requests come from
// a child process, as a client would: in this one they would wait for whatever the server's thread does after
// answering (PGlite runs its queries on it), which a client elsewhere does not.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pino from 'pino';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { createContext } from '../server/src/context';
import { openDatabase, type Database } from '../server/src/db/client';
import { migrate } from '../server/src/db/migrate';
import { users } from '../server/src/db/schema';
import { createBusinessAccount } from '../server/src/modules/business-account';
import { onFreshPostgres } from './lib/postgres';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const MAIL_DELAY_MS = Number(process.env.MAIL_DELAY_MS ?? 20);

/** Reads a URL and an email per line, asks for a reset, and writes back how many ms the answer took. */
const CLIENT = `
const lines = require('node:readline').createInterface({ input: process.stdin });
lines.on('line', async (line) => {
  const [url, email] = line.split(' ');
  const started = performance.now();
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  await answer.text();
  process.stdout.write((performance.now() - started) + '\\n');
});`;

function startClient() {
  const child = spawn(process.execPath, ['-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async time(url: string, email: string): Promise<number> {
      child.stdin.write(`${url} ${email}\n`);
      return Number((await answers.next()).value);
    },
    close: () => child.kill(),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function measure(label: string, database: Database) {
  await migrate(database);
  const config = { ...loadConfig({ APP_SECRET: 'bench-secret-bench-secret-bench-secret' }), requestsPerMinute: 1_000_000, runWorker: false };
  const log = pino({ level: 'silent' });
  const ctx = createContext(config, database, log);
  const { business } = await createBusinessAccount(ctx.db, { name: 'Bench Care', admin: { email: 'bench@bench.test', password: 'benchmark password', first_name: 'Ben' } });
  await ctx.db.insert(users).values(Array.from({ length: REQUESTS * 2 }, (_, index) => ({
    business_account_id: business.id, email: `known${index}@bench.test`, password_hash: 'not a hash', first_name: 'Known', role: 'REGULAR_USER' as const,
  })));
  const app = await buildApp({ ctx, logger: log, spaDir: '/nonexistent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const outbox = ctx.mailer.send.bind(ctx.mailer);
  const client = startClient();
  const rows = [];
  let next = 0;
  for (const delay of [0, MAIL_DELAY_MS]) {
    ctx.mailer.send = async (email) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      await outbox(email);
    };
    const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    for (let index = 0; index < REQUESTS; index++) {
      // Alternated, so that both kinds meet the same machine.
      for (const kind of index % 2 ? ['known', 'unknown'] as const : ['unknown', 'known'] as const) {
        times[kind].push(await client.time(`${url}/api/auth/password_reset`, `${kind}${next}@bench.test`));
        await ctx.background.settled();
      }
      next++;
    }
    rows.push({
      database: label, 'mail ms': delay, requests: REQUESTS, 'known p50 ms': +median(times.known).toFixed(2), 'unknown p50 ms': +median(times.unknown).toFixed(2),
      'known / unknown': +(median(times.known) / median(times.unknown)).toFixed(2),
    });
  }
  client.close();
  await app.close();
  await database.close();
  return rows;
}

const rows = await measure('PGlite', await openDatabase({}));
rows.push(...(await onFreshPostgres('reset', async (url) => measure('PostgreSQL', await openDatabase({ url })))));
console.table(rows);
