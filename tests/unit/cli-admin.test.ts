import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'rounds-cli-'));
const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PUBLIC_URL: 'http://rounds.example' };
const admin = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', ...args], { env, encoding: 'utf8' });

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// Each call starts a process that opens the embedded database and runs its migrations: slow on a loaded machine.
describe('operator CLI', () => {
  it('creates a business with its admin, a user, and prints a login-as link', () => {
    const business = admin('create-business', '--name', 'Acme Care', '--email', 'ada@acme.test', '--password', 'long enough pw', '--first-name', 'Ada');
    expect(business.status, business.stderr).toBe(0);
    expect(business.stdout).toMatch(/Created business account #1 "Acme Care" with admin ada@acme.test/);
    const user = admin('create-user', '--business-id', '1', '--email', 'sam@acme.test', '--password', 'long enough pw', '--first-name', 'Sam', '--role', 'regular_user');
    expect(user.stdout).toMatch(/Created REGULAR_USER user #2 sam@acme.test/);
    const link = execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'login-as-link', '--email', 'sam@acme.test'], { env, encoding: 'utf8' });
    expect(link.trim()).toMatch(/^http:\/\/rounds\.example\/login-as\?token=[\w-]{40,}$/);
  }, 180_000);

  it('asks which business a login-as link is for when the email is a user of several', () => {
    const second = admin('create-business', '--name', 'Beta Care', '--email', 'SAM@acme.test', '--password', 'long enough pw', '--first-name', 'Sam');
    expect(second.status, second.stderr).toBe(0);
    const ambiguous = admin('login-as-link', '--email', 'sam@acme.test');
    expect(ambiguous.status).toBe(1);
    expect(ambiguous.stderr).toMatch(/Error: sam@acme\.test is a user of several business accounts \(#1 "Acme Care", #2 "Beta Care"\): add --business-id to say which/);
    const chosen = admin('login-as-link', '--email', 'sam@acme.test', '--business-id', '2');
    expect(chosen.status, chosen.stderr).toBe(0);
    expect(chosen.stdout.trim()).toMatch(/^http:\/\/rounds\.example\/login-as\?token=[\w-]{40,}$/);
  }, 180_000);

  it('explains bad input instead of crashing', () => {
    const duplicate = admin('create-user', '--business-id', '1', '--email', 'not-an-email', '--password', 'long enough pw', '--first-name', 'X', '--role', 'ADMIN');
    expect(duplicate.status).toBe(1);
    expect(duplicate.stderr).toMatch(/Error: email "not-an-email" is not a valid email address/);
    const badRole = admin('create-user', '--business-id', '1', '--email', 'x@acme.test', '--password', 'long enough pw', '--first-name', 'X', '--role', 'BOSS');
    expect(badRole.stderr).toMatch(/--role must be one of ADMIN, REGULAR_USER, PRACTITIONER/);
    const common = admin('create-user', '--business-id', '1', '--email', 'c@acme.test', '--password', 'Password123!', '--first-name', 'C', '--role', 'ADMIN');
    expect(common.status).toBe(1);
    expect(common.stderr).toMatch(/password: .*one of the most common passwords/);
  }, 180_000);

  it('sets a business’s subscription and says whether its users must add a payment method', () => {
    const locked = admin('set-subscription', '--business', '1', '--status', 'trialing', '--trial-ends', '2026-01-01', '--payment-method', 'off');
    expect(locked.status, locked.stderr).toBe(0);
    expect(locked.stdout).toMatch(/Business account #1: plan trial, status trialing, trial ends 2026-01-01T00:00:00.000Z, payment method none\. Payment is required/);
    const paid = admin('set-subscription', '--business', '1', '--plan', 'standard', '--status', 'active', '--payment-method', 'on');
    expect(paid.stdout).toMatch(/plan standard, status active, .*payment method on file\. Its users can work\./);
    expect(admin('set-subscription', '--business', '1', '--status', 'paid').stderr).toMatch(/--status must be one of trialing, active, past_due, cancelled/);
    expect(admin('set-subscription', '--business', '99', '--status', 'active').stderr).toMatch(/no business account has the id 99/);
    expect(admin('set-subscription', '--business', '1').stderr).toMatch(/needs at least one of --plan/);
  }, 180_000);
});

