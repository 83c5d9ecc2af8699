// Sessions, logins, password resets, login-as links and invitations.
import { randomBytes } from 'node:crypto';
import { DEACTIVATED_MESSAGE, deactivatedCaller, USER_NOT_ACTIVE_CODE, type AuthContext } from '../../auth/access';
import { hashPassword, passwordProblem, verifyPassword } from '../../auth/passwords';
import { hashToken, newToken } from '../../auth/tokens';
import type { Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, forbidden, HttpError, invalid, tooManyRequests, unauthenticated } from '../../http/errors';
import type { DbOrTx } from '../../db/client';
import { normalEmail } from '../../lib/email-address';
import { recordVersion } from '../audit';
import {
  findBusinessUserByEmail, findUserById, findUsersByEmail, fullName, isDuplicateEmail, recordLogin, statusOf, toUserDto, updateUser, type UserRow, type UserWithBusiness,
} from '../users';
import {
  consumeOneTimeToken, findLiveSession, findOneTimeToken, insertOneTimeToken, insertSession, isDeactivatedUsersToken, revokeOneTimeTokens, revokeResetLinks,
  revokeSession, revokeUserSessions, type OneTimeTokenPurpose,
} from './repository';
import { clearFailures, giveBackAttempt, takeAttempt, type ThrottleRule } from './throttle';
import { paymentRequired, subscriptionStateOf } from '../subscriptions';

type Session = Schemas['Session'];
/** A business whose account an email and password open, for the person to choose when they open several. */
export interface BusinessChoice { id: number; name: string }

const RESET_TTL_MINUTES = 60;
/**
 * Reset emails sent to one address per LOGIN_WINDOW_MINUTES, whoever asks. Past it a request is answered as usual
 * but sends nothing: the last link sent is still valid (it lives longer than the window), so the user can reset.
 */
const RESET_EMAILS_PER_WINDOW = 3;
const LOGIN_AS_TTL_MINUTES = 15;
export const INVITATION_TTL_DAYS = 7;
/**
 * Verified against when the email is unknown or the user has no password yet, so those take as long as a wrong
 * password. Its password is random and never kept, and a match against it is never taken as a login anyway.
 */
const DECOY_HASH = hashPassword(randomBytes(32).toString('base64'));

export class AuthService {
  constructor(private readonly ctx: AppContext) {}

  private get throttle(): ThrottleRule {
    return { maxFailures: this.ctx.config.loginMaxFailures, windowMinutes: this.ctx.config.loginWindowMinutes };
  }

  /** Failures for one account from every address: no rotation of addresses gets more guesses than this. */
  private get accountThrottle(): ThrottleRule {
    return { maxFailures: this.ctx.config.loginAccountMaxFailures, windowMinutes: this.ctx.config.loginWindowMinutes };
  }

  /**
   * A session for the account this email and password open. Emails are unique per business only: when they open
   * accounts in several businesses and `businessAccountId` does not pick one, the answer is those businesses to choose
   * from, and nothing is said of an account whose password this is not.
   */
  async login(email: string, password: string, ip: string, businessAccountId?: number): Promise<Session | { businesses: BusinessChoice[] }> {
    const { db } = this.ctx;
    const account = normalEmail(email);
    const key = `login:${account}|${ip}`;
    const accountKey = `login-account:${account}`;
    // Every attempt is counted before the password is checked, so simultaneous guesses cannot outrun the limits.
    // An address already over its limit adds nothing to the account's count (it cannot lock the account by itself).
    const minutes = await takeAttempt(db, key, this.throttle) || await takeAttempt(db, accountKey, this.accountThrottle);
    if (minutes > 0) {
      throw tooManyRequests(`Too many failed login attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
    }
    const matches = await this.accountsOpenedBy(email, password, businessAccountId);
    if (!matches.length) throw new HttpError(401, 'Invalid email or password.', 'INVALID_CREDENTIALS');
    // This address's count is forgiven; the account's keeps its window (this attempt aside), so a guesser who waits
    // for the user's next login gains nothing.
    await clearFailures(db, key);
    await giveBackAttempt(db, accountKey);
    const usable = matches.filter(({ user, business }) => user.active && business.active);
    if (usable.length > 1) {
      return { businesses: usable.map(({ business }) => ({ id: business.id, name: business.name })).sort((a, b) => a.name.localeCompare(b.name)) };
    }
    // A deactivated account is told why only to whoever has its password.
    const found = usable[0] ?? matches[0];
    assertActive(found);
    return this.startSession(found);
  }

  /** The accounts with this email (in the given business only, when one is) whose password this is. */
  private async accountsOpenedBy(email: string, password: string, businessAccountId?: number): Promise<UserWithBusiness[]> {
    const accounts = (await findUsersByEmail(this.ctx.db, email))
      .filter(({ business }) => businessAccountId === undefined || business.id === businessAccountId);
    // An unknown email takes as long as a wrong password.
    if (!accounts.length) await passwordMatches(password, null);
    const opened = await Promise.all(accounts.map(({ user }) => passwordMatches(password, user.password_hash)));
    return accounts.filter((_, index) => opened[index]);
  }

  /** A login is always a new session with a new token: no token from before it is ever taken up. */
  private async startSession(found: UserWithBusiness): Promise<Session> {
    const session = await this.issueSession(this.ctx.db, found.user.id);
    await recordLogin(this.ctx.db, found.user.id);
    return { ...session, user: toUserDto(found) };
  }

  private async issueSession(db: DbOrTx, userId: number) {
    const token = newToken();
    const expiresAt = new Date(Date.now() + this.ctx.config.sessionTtlHours * 3600_000);
    await insertSession(db, userId, hashToken(token), expiresAt);
    return { token, expires_at: expiresAt.toISOString() };
  }

  async authenticate(token: string): Promise<AuthContext | null> {
    const row = await findLiveSession(this.ctx.db, hashToken(token));
    if (!row) {
      // Their session ended when they were deactivated: the login page says why, not just that it ended.
      if (await isDeactivatedUsersToken(this.ctx.db, hashToken(token))) throw deactivatedCaller();
      return null;
    }
    return {
      sessionId: row.sessionId,
      userId: row.user.id,
      businessAccountId: row.user.business_account_id,
      role: row.user.role,
      associatedPractitionerIds: row.user.associated_practitioner_ids,
      fullName: fullName(row.user),
      paymentRequired: paymentRequired(subscriptionStateOf(row.businessCreatedAt, row.subscription), new Date()),
      lists: { version: row.listsVersion, timeZone: row.timeZone },
    };
  }

  /** The signed-in user; unauthenticated when their row is gone. */
  async currentUser(auth: AuthContext) {
    const found = await findUserById(this.ctx.db, auth.userId);
    if (!found) throw unauthenticated();
    return toUserDto(found);
  }

  async logout(auth: AuthContext): Promise<void> {
    await revokeSession(this.ctx.db, auth.sessionId);
  }

  /**
   * Throttled per address and email (LOGIN_MAX_FAILURES per LOGIN_WINDOW_MINUTES, then 429 to that address only), so
   * nobody can block another person's resets; and at most RESET_EMAILS_PER_WINDOW emails go to one account per
   * window, whoever asks, answered the same way whether sent or not.
   */
  async requestPasswordReset(email: string, ip: string): Promise<void> {
    const address = normalEmail(email);
    if (await takeAttempt(this.ctx.db, `reset:${address}|${ip}`, this.throttle) > 0) {
      throw tooManyRequests('Too many reset requests from your address. Try again later.');
    }
    // Whether the address has accounts is looked up after the answer, and their emails are built and sent then: the
    // answer is the same, in the same time, for every address (timings: bench/password-reset.ts).
    this.ctx.background.run('emailing password reset links', () => this.emailResetLinks(address, ip));
  }

  private async emailResetLinks(address: string, ip: string): Promise<void> {
    const accounts = (await findUsersByEmail(this.ctx.db, address)).filter(({ user }) => user.active);
    if (!accounts.length) {
      this.ctx.log.info({ ip }, 'password reset requested for an unknown or inactive email');
      return;
    }
    // The email may be a user of several businesses: each account gets its own link, naming its business.
    for (const found of accounts) await this.sendResetLink(found, ip);
  }

  /** Emails the account a reset link, unless RESET_EMAILS_PER_WINDOW were sent to it in this window already. */
  private async sendResetLink(found: UserWithBusiness, ip: string): Promise<void> {
    const { db, config } = this.ctx;
    const emailCap: ThrottleRule = { maxFailures: RESET_EMAILS_PER_WINDOW, windowMinutes: config.loginWindowMinutes };
    if (await takeAttempt(db, resetEmailsKey(found.user.id), emailCap) > 0) {
      this.ctx.log.info({ ip, userId: found.user.id }, 'password reset not emailed: enough links were sent recently');
      return;
    }
    const token = await this.issueOneTimeToken(found.user.id, 'PASSWORD_RESET', RESET_TTL_MINUTES);
    const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
    await this.ctx.mailer.send({
      to: found.user.email,
      businessAccountId: found.business.id,
      subject: `Reset your Rounds password for ${found.business.name}`,
      text: `Hello ${found.user.first_name},\n\nSomeone asked to reset the password of your Rounds account at ${found.business.name}. `
        + `To choose a new password, open this link within ${RESET_TTL_MINUTES} minutes:\n\n${link}\n\n`
        + 'If it was not you, ignore this email: your password stays as it is.\n',
    });
  }

  async confirmPasswordReset(token: string, password: string): Promise<void> {
    const problem = passwordProblem(password);
    if (problem) throw invalid(problem);
    const userId = await this.consumeOneTimeToken(token, 'PASSWORD_RESET', 'This reset link is invalid or has expired. Ask for a new one.');
    const found = await findUserById(this.ctx.db, userId);
    await this.ctx.db.transaction(async (tx) => {
      await updateUser(tx, userId, { password_hash: await hashPassword(password) });
      await revokeUserSessions(tx, userId);
      await revokeResetLinks(tx, userId);
      // An invited user who chose their password through "Forgot your password?" has accepted their invitation.
      if (found && statusOf(found.user) === 'invited') {
        await revokeOneTimeTokens(tx, userId, ['INVITATION']);
        await recordVersion(tx, {
          businessAccountId: found.business.id, itemType: 'User', itemId: userId, event: 'update', whodunnit: fullName(found.user),
          changes: { status: ['invited', 'active'] }, reason: 'Password chosen through a reset link',
        });
      }
    });
    // The user has just proved they own the mailbox: their next reset request may send a link at once.
    await clearFailures(this.ctx.db, resetEmailsKey(userId));
  }

  async createLoginAsLink(userId: number): Promise<string> {
    const token = await this.issueOneTimeToken(userId, 'LOGIN_AS', LOGIN_AS_TTL_MINUTES);
    return `${this.ctx.config.publicUrl}/login-as?token=${encodeURIComponent(token)}`;
  }

  async exchangeLoginAs(token: string) {
    const userId = await this.consumeOneTimeToken(token, 'LOGIN_AS', 'This login link is invalid, used or expired.');
    const found = await findUserById(this.ctx.db, userId);
    if (!found) throw invalid('This login link is invalid, used or expired.');
    assertActive(found);
    return this.startSession(found);
  }

  async updateAccount(auth: AuthContext, changes: {
    first_name?: string; last_name?: string; email?: string; current_password?: string; new_password?: string;
  }) {
    const { db } = this.ctx;
    const found = await findUserById(db, auth.userId);
    if (!found) throw invalid('Your account no longer exists.');
    const emailChanged = changes.email !== undefined && normalEmail(changes.email) !== found.user.email;
    if (changes.new_password !== undefined) {
      const problem = passwordProblem(changes.new_password);
      if (problem) throw invalid(`new_password: ${problem}`);
    }
    if (emailChanged || changes.new_password !== undefined) {
      if (!changes.current_password || !(await verifyPassword(changes.current_password, found.user.password_hash ?? ''))) {
        throw invalid('Current password is incorrect.', ['current_password: Current password is incorrect.']);
      }
    }
    if (emailChanged) {
      if (await findBusinessUserByEmail(db, auth.businessAccountId, changes.email!)) throw emailTaken();
    }
    const passwordHash = changes.new_password ? await hashPassword(changes.new_password) : undefined;
    const session = await db.transaction(async (tx) => {
      await updateUser(tx, auth.userId, {
        first_name: changes.first_name?.trim() ?? found.user.first_name,
        last_name: changes.last_name?.trim() ?? found.user.last_name,
        email: emailChanged ? changes.email! : found.user.email,
        ...(passwordHash ? { password_hash: passwordHash } : {}),
      });
      // Links sent before a password or email change must not undo it.
      if (passwordHash || emailChanged) await revokeResetLinks(tx, auth.userId);
      if (!passwordHash) return undefined;
      // Every session ends, the caller's too (a stolen token must not outlive the change); the caller gets a new one.
      await revokeUserSessions(tx, auth.userId);
      return this.issueSession(tx, auth.userId);
    }).catch((error: unknown) => {
      throw isDuplicateEmail(error) ? emailTaken() : error;
    });
    const user = toUserDto((await findUserById(db, auth.userId))!);
    return session ? { user, session } : { user };
  }

  /**
   * Replaces an invited user's links with a new one, in the caller's transaction (which holds the user's row, so that
   * simultaneous re-sends leave one link): answers the link and when it expires.
   */
  async newInvitationLink(tx: DbOrTx, userId: number): Promise<{ link: string; expiresAt: Date }> {
    await revokeOneTimeTokens(tx, userId, ['INVITATION']);
    const ttlMinutes = INVITATION_TTL_DAYS * 24 * 60;
    const token = await this.issueOneTimeToken(userId, 'INVITATION', ttlMinutes, tx);
    return { link: `${this.ctx.config.publicUrl}/accept-invitation?token=${encodeURIComponent(token)}`, expiresAt: new Date(Date.now() + ttlMinutes * 60_000) };
  }

  async emailInvitation({ user, business }: { user: UserRow; business: { id: number; name: string } }, link: string, invitedBy: string): Promise<void> {
    await this.ctx.mailer.send({
      to: user.email,
      businessAccountId: business.id,
      subject: `You are invited to ${business.name} on Rounds`,
      text: `Hello ${user.first_name},\n\n${invitedBy} invited you to use Rounds at ${business.name}. `
        + `To choose your password and log in, open this link within ${INVITATION_TTL_DAYS} days:\n\n${link}\n\n`
        + 'If you did not expect this invitation, ignore this email.\n',
    });
  }

  /** A deactivated user's sessions and every link sent to them end at once. */
  async endAccess(tx: DbOrTx, userId: number): Promise<void> {
    await revokeUserSessions(tx, userId);
    await revokeOneTimeTokens(tx, userId, ['PASSWORD_RESET', 'LOGIN_AS', 'INVITATION']);
  }

  /** Who an invitation link is for, or a 422 whose code and sentence say why it no longer works. */
  async checkInvitation(token: string) {
    const { user, business } = await this.invitationOf(token);
    return { email: user.email, first_name: user.first_name, business_name: business.name };
  }

  /** Sets the invited user's password; the link is used up. Answers the email they now log in with. */
  async acceptInvitation(token: string, password: string) {
    const problem = passwordProblem(password);
    if (problem) throw invalid(`password: ${problem}`);
    const found = await this.invitationOf(token);
    const passwordHash = await hashPassword(password);
    const accepted = await this.ctx.db.transaction(async (tx) => {
      const userId = await consumeOneTimeToken(tx, hashToken(token), 'INVITATION');
      // Another tab accepted it between the check and now.
      if (userId === undefined) return false;
      await updateUser(tx, userId, { password_hash: passwordHash });
      // No session from before the user chose their password may go on.
      await revokeUserSessions(tx, userId);
      await revokeOneTimeTokens(tx, userId, ['INVITATION']);
      await recordVersion(tx, {
        businessAccountId: found.business.id, itemType: 'User', itemId: userId, event: 'update', whodunnit: fullName(found.user),
        changes: { status: ['invited', 'active'] },
      });
      return true;
    });
    if (!accepted) throw invitationProblem('INVITATION_USED');
    return { message: 'Your password is set. Welcome to Rounds.', email: found.user.email };
  }

  private async invitationOf(token: string): Promise<UserWithBusiness> {
    const row = await findOneTimeToken(this.ctx.db, hashToken(token), 'INVITATION');
    const found = row && await findUserById(this.ctx.db, row.user_id);
    if (!row || !found || statusOf(found.user) === 'deactivated') throw invitationProblem('INVITATION_INVALID');
    if (statusOf(found.user) === 'active') throw invitationProblem('INVITATION_USED');
    if (row.used_at) throw invitationProblem('INVITATION_REPLACED');
    if (new Date(row.expires_at).getTime() <= Date.now()) throw invitationProblem('INVITATION_EXPIRED');
    return found;
  }

  private async issueOneTimeToken(userId: number, purpose: OneTimeTokenPurpose, ttlMinutes: number, db: DbOrTx = this.ctx.db) {
    const token = newToken();
    await insertOneTimeToken(db, userId, purpose, hashToken(token), new Date(Date.now() + ttlMinutes * 60_000));
    return token;
  }

  /** Marks the token used and returns its user, in one statement so a token works once even under races. */
  private async consumeOneTimeToken(token: string, purpose: OneTimeTokenPurpose, failure: string) {
    const userId = await consumeOneTimeToken(this.ctx.db, hashToken(token), purpose);
    if (userId === undefined) throw invalid(failure);
    return userId;
  }
}

/**
 * Whether the password is the user's. A user without a password (invited, not yet accepted) never matches, whatever is
 * typed; the decoy is still verified so that the answer takes as long.
 */
async function passwordMatches(password: string, passwordHash: string | null): Promise<boolean> {
  if (!passwordHash) {
    await verifyPassword(password, await DECOY_HASH);
    return false;
  }
  return verifyPassword(password, passwordHash);
}

/** Only the caller's business counts: another business's users are neither refused nor revealed. */
const emailTaken = () => conflict('That email is already used by another account.', 'CONFLICT', ['email: That email is already used by another account.']);

const resetEmailsKey = (userId: number) => `reset-emails:${userId}`;

const INVITATION_PROBLEMS = {
  INVITATION_INVALID: 'This invitation link is not valid. Ask your administrator to send you a new invitation.',
  INVITATION_USED: 'This invitation has already been accepted. Log in with your email and the password you chose.',
  INVITATION_REPLACED: 'A newer invitation was sent to you: use the link in the latest email.',
  INVITATION_EXPIRED: `This invitation link has expired (links last ${INVITATION_TTL_DAYS} days). Ask your administrator to send a new one.`,
} as const;

const invitationProblem = (code: keyof typeof INVITATION_PROBLEMS) => new HttpError(422, INVITATION_PROBLEMS[code], code, [INVITATION_PROBLEMS[code]]);

function assertActive({ user, business }: UserWithBusiness): void {
  if (!user.active) throw forbidden(DEACTIVATED_MESSAGE, USER_NOT_ACTIVE_CODE);
  if (!business.active) throw forbidden('Your business account is not active.', '40001');
}
