// A password reset request is answered before Rounds looks the email up or builds and sends any email, so the answer
// is the same, in the same time, whether or not the email has an account (how long each takes: bench/password-reset.ts),
// and a mail server that fails or hangs never fails it. The email then goes as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../../server/src/mail/mailer';
import { startTestApp, type TestApp } from './support/app';
import { createBusinessFixture, type BusinessFixture } from './support/fixtures';

let t: TestApp;
let acme: BusinessFixture;
const logLines: string[] = [];

beforeAll(async () => {
  t = await startTestApp({}, { logStream: { write: (line) => { logLines.push(line); } } });
  acme = await createBusinessFixture(t, 'acme');
});
afterAll(() => t?.close());

let address = 0;
const requestReset = (email: string) =>
  t.request('POST', '/api/auth/password_reset', { body: { email }, remoteAddress: `10.36.0.${++address}`, answerOnly: true });

/** Replaces the mailer's send for the duration of `during`. */
async function withMailer(send: Mailer['send'], during: () => Promise<void>): Promise<void> {
  const original = t.ctx.mailer.send;
  t.ctx.mailer.send = send;
  try {
    await during();
  } finally {
    t.ctx.mailer.send = original;
  }
}

describe('a password reset request', () => {
  it('is answered while the email to a known address is still being sent, as an unknown address is', async () => {
    // The mail server takes until `release`: an answer that waited for it would never come (the test times out).
    let sending = 0;
    let release = () => {};
    const stuck = new Promise<void>((resolve) => { release = resolve; });
    await withMailer(async () => { sending++; await stuck; }, async () => {
      const known = await requestReset(acme.emails.staff);
      const unknown = await requestReset('nobody@acme.test');
      expect(known).toEqual({ ...unknown, headers: known.headers });
      expect(known.status).toBe(202);
      release();
      await t.ctx.background.settled();
    });
    expect(sending).toBe(1);
  }, 10_000);

  it('is answered 202 when the mail server fails, and the failure is logged', async () => {
    await withMailer(async () => { throw new Error('SMTP connection refused'); }, async () => {
      const answer = await requestReset(acme.emails.practitioner);
      expect(answer.status).toBe(202);
      await t.ctx.background.settled();
    });
    const failure = logLines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'emailing password reset links failed');
    expect(failure).toMatchObject({ level: 50, err: { message: 'SMTP connection refused' } });
  });
});
