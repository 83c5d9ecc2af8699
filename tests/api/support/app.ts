// Test harness: a real app on a real database, called through Fastify's inject, every response checked
// against the contract.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../../server/src/app';
import { loadConfig, type Config } from '../../../server/src/config';
import { createContext } from '../../../server/src/context';
import { createLogger } from '../../../server/src/logger';
import type { AppContext } from '../../../server/src/http/context';
import { assertMatchesContract } from './contract';
import { createTestDatabase, type TestDatabase } from './database';

export interface TestResponse<T = any> { status: number; body: T; headers: Record<string, unknown> }

export interface RequestOptions {
  token?: string; body?: unknown; headers?: Record<string, string>; rawBody?: string;
  /** The socket address the request comes from (default 127.0.0.1). */
  remoteAddress?: string;
  /** Answer without waiting for the work the request left running after its answer (see BackgroundWork). */
  answerOnly?: boolean;
}

export interface StartOptions {
  /** Directory of a built SPA to serve (default: none). */
  spaDir?: string;
  /** Receives the server log as JSON lines, at LOG_LEVEL info or TEST_LOG_LEVEL. */
  logStream?: { write(line: string): void };
  /** The captured log's level (default TEST_LOG_LEVEL, else info). */
  logLevel?: string;
  /** Create the test database on this PostgreSQL server instead of TEST_DATABASE_URL's. */
  databaseServerUrl?: string;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** See TestDatabase.url. */
  databaseUrl: string | null;
  request<T = any>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export async function startTestApp(overrides: Partial<Config> = {}, options: StartOptions = {}): Promise<TestApp> {
  const testDatabase: TestDatabase = await createTestDatabase({ serverUrl: options.databaseServerUrl });
  const config = { ...loadConfig({ NODE_ENV: 'test', APP_SECRET: 'test-secret-test-secret-test-secret-123' }), seedDemo: false, runWorker: false, startSandbox: false, ...overrides };
  // A captured log is the product's (its redaction included), so that what a test reads is what an operator would.
  const log = options.logStream
    ? createLogger(options.logLevel ?? process.env.TEST_LOG_LEVEL ?? 'info', options.logStream)
    : pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const ctx = createContext(config, testDatabase.database, log);
  const app = await buildApp({ ctx, logger: log, spaDir: options.spaDir ?? '/nonexistent' });
  await app.ready();
  return {
    app,
    ctx,
    databaseUrl: testDatabase.url,
    async request<T>(method: string, url: string, options: RequestOptions = {}): Promise<TestResponse<T>> {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let payload: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      } else if (payload !== undefined) {
        headers['content-type'] ??= 'application/json';
      }
      const response = await app.inject({ method: method as 'GET', url, headers, payload, remoteAddress: options.remoteAddress });
      // What the request left to run after its answer (a reset email) is done before the test reads on, as a person
      // reads their mail after the page has answered; tests/api/password-reset-timing.test.ts looks at the answer alone.
      if (!options.answerOnly) await ctx.background.settled();
      const body = response.body ? safeJson(response.body) : undefined;
      assertMatchesContract(method, url, response.statusCode, body);
      return { status: response.statusCode, body: body as T, headers: response.headers };
    },
    async close() {
      await app.close();
      await testDatabase.drop();
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
