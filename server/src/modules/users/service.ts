// The business's users, administered by its ADMINs (Settings → Users): list, invite (an emailed one-time link to
// choose a password, through the auth module), re-send, change role and associated practitioners, deactivate and
// reactivate. An admin cannot demote or deactivate themself, and the business always keeps an active ADMIN. Every
// change is in the change log (item type 'User'), which the Activity report reads.
import { deactivatedCaller, type AuthContext } from '../../auth/access';
import type { DbOrTx } from '../../db/client';
import type { Role } from '../../db/schema';
import type { BodyOf, QueryOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { conflict, forbidden, invalid, notFound } from '../../http/errors';
import { normalEmail } from '../../lib/email-address';
import { recordVersion, type ObjectChanges } from '../audit';
import {
  findBusinessUser, findBusinessUserByEmail, findOtherActiveUserByEmail, findUserById, fullName, insertUser, invitationExpiries, isDuplicateEmail, listBusinessUsers,
  lockAdmins, lockOtherActiveAdmins, practitionerNames, statusOf, updateUser, type UserRow,
} from './repository';

/** What the users service needs of the auth module (given by the caller, so neither module imports the other back). */
export interface InvitationSender {
  newInvitationLink(tx: DbOrTx, userId: number): Promise<{ link: string; expiresAt: Date }>;
  emailInvitation(found: { user: UserRow; business: { id: number; name: string } }, link: string, invitedBy: string): Promise<void>;
  endAccess(tx: DbOrTx, userId: number): Promise<void>;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class UsersService {
  constructor(private readonly ctx: AppContext, private readonly invitations: InvitationSender) {}

  async list(auth: AuthContext, query: QueryOf<'listUsers'>): Promise<Schemas['BusinessUser'][]> {
    const search = query.search?.trim().toLowerCase() ?? '';
    const rows = (await listBusinessUsers(this.ctx.db, auth.businessAccountId)).filter((user) =>
      (!query.role || user.role === query.role)
      && (!query.status || statusOf(user) === query.status)
      && (!search || `${fullName(user)} ${user.email}`.toLowerCase().includes(search)));
    return this.dtos(auth.businessAccountId, rows);
  }

  async invite(auth: AuthContext, input: BodyOf<'inviteUser'>): Promise<Schemas['BusinessUser']> {
    const email = normalEmail(input.email);
    const firstName = input.first_name.trim();
    const problems: string[] = [];
    if (!EMAIL.test(email)) problems.push('email: enter an email address such as sam@example.com.');
    if (!firstName) problems.push('first_name: enter the first name.');
    const practitionerIds = await this.practitionersFor(auth, input.role, input.associated_practitioner_ids ?? [], problems);
    if (problems.length) throw invalid(problems[0], problems);
    const taken = () => {
      const message = `${input.email.trim()} is already a user of your business: each person logs in with their own email.`;
      return conflict(message, 'EMAIL_TAKEN', [`email: ${message}`]);
    };
    // Only this business's users count: another business's are neither refused nor revealed.
    if (await findBusinessUserByEmail(this.ctx.db, auth.businessAccountId, email)) throw taken();
    const { user, link } = await this.ctx.db.transaction(async (tx) => {
      await this.lockAdminsAsCaller(tx, auth);
      const created = await insertUser(tx, {
        business_account_id: auth.businessAccountId, email, password_hash: null, first_name: firstName, last_name: (input.last_name ?? '').trim(),
        role: input.role, associated_practitioner_ids: practitionerIds,
      });
      const changes: ObjectChanges = {
        email: [null, created.email], first_name: [null, created.first_name], role: [null, created.role], status: [null, 'invited'],
      };
      if (created.last_name) changes.last_name = [null, created.last_name];
      if (practitionerIds.length) changes.associated_practitioner_ids = [null, practitionerIds];
      await recordVersion(tx, { businessAccountId: auth.businessAccountId, itemType: 'User', itemId: created.id, event: 'create', whodunnit: auth.fullName, changes });
      return { user: created, link: (await this.invitations.newInvitationLink(tx, created.id)).link };
    }).catch((error: unknown) => {
      throw isDuplicateEmail(error) ? taken() : error;
    });
    // After the commit: a failed email leaves an invited user the admin can send the invitation to again.
    await this.email(auth, user, link);
    return this.get(auth, user.id);
  }

  /** The links sent before stop working: the user's row is held while they are replaced, so re-sends at once leave one. */
  async resendInvitation(auth: AuthContext, id: number): Promise<Schemas['BusinessUser']> {
    const { user, link } = await this.ctx.db.transaction(async (tx) => {
      await this.lockAdminsAsCaller(tx, auth);
      const found = await findBusinessUser(tx, auth.businessAccountId, id, 'update');
      if (!found) throw notFound('User');
      const status = statusOf(found);
      if (status !== 'invited') {
        throw conflict(status === 'active'
          ? `${fullName(found)} has already accepted their invitation.`
          : `${fullName(found)} is deactivated: reactivate them before sending an invitation.`, 'NOT_INVITED');
      }
      const before = (await invitationExpiries(tx, [id])).get(id) ?? null;
      const invitation = await this.invitations.newInvitationLink(tx, id);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'User', itemId: id, event: 'update', whodunnit: auth.fullName,
        changes: { invitation_expires_at: [before, invitation.expiresAt] }, reason: 'Invitation sent again',
      });
      return { user: found, link: invitation.link };
    });
    await this.email(auth, user, link);
    return this.get(auth, id);
  }

  async update(auth: AuthContext, id: number, input: BodyOf<'updateBusinessUser'>): Promise<Schemas['BusinessUser']> {
    await this.ctx.db.transaction(async (tx) => {
      await this.lockAdminsAsCaller(tx, auth);
      const before = await findBusinessUser(tx, auth.businessAccountId, id, 'update');
      if (!before) throw notFound('User');
      const role = input.role ?? before.role;
      if (role !== before.role && before.role === 'ADMIN') await this.assertAdminRemains(tx, auth, before, 'demote');
      const problems: string[] = [];
      const wanted = role === 'PRACTITIONER'
        ? input.associated_practitioner_ids ?? before.associated_practitioner_ids
        : input.associated_practitioner_ids ?? [];
      const practitionerIds = await this.practitionersFor(auth, role, wanted, problems, tx);
      if (problems.length) throw invalid(problems[0], problems);
      const changes: ObjectChanges = {};
      if (role !== before.role) changes.role = [before.role, role];
      if (JSON.stringify([...practitionerIds].sort()) !== JSON.stringify([...before.associated_practitioner_ids].sort())) {
        changes.associated_practitioner_ids = [before.associated_practitioner_ids, practitionerIds];
      }
      if (!Object.keys(changes).length) return;
      await updateUser(tx, id, { role, associated_practitioner_ids: practitionerIds });
      await recordVersion(tx, { businessAccountId: auth.businessAccountId, itemType: 'User', itemId: id, event: 'update', whodunnit: auth.fullName, changes });
    });
    return this.get(auth, id);
  }

  async deactivate(auth: AuthContext, id: number): Promise<Schemas['BusinessUser']> {
    await this.ctx.db.transaction(async (tx) => {
      await this.lockAdminsAsCaller(tx, auth);
      const before = await findBusinessUser(tx, auth.businessAccountId, id, 'update');
      if (!before) throw notFound('User');
      if (!before.active) return;
      if (before.role === 'ADMIN') await this.assertAdminRemains(tx, auth, before, 'deactivate');
      await updateUser(tx, id, { active: false });
      await this.invitations.endAccess(tx, id);
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'User', itemId: id, event: 'update', whodunnit: auth.fullName,
        changes: { status: [statusOf(before), 'deactivated'] },
      });
    });
    return this.get(auth, id);
  }

  async reactivate(auth: AuthContext, id: number): Promise<Schemas['BusinessUser']> {
    await this.ctx.db.transaction(async (tx) => {
      await this.lockAdminsAsCaller(tx, auth);
      const before = await findBusinessUser(tx, auth.businessAccountId, id, 'update');
      if (!before) throw notFound('User');
      if (before.active) return;
      const holder = await findOtherActiveUserByEmail(tx, auth.businessAccountId, before.email, id);
      if (holder) {
        throw conflict(`${fullName(before)} cannot be reactivated: ${fullName(holder)} is an active user with the same email, ${before.email}.`, 'EMAIL_TAKEN');
      }
      await updateUser(tx, id, { active: true });
      await recordVersion(tx, {
        businessAccountId: auth.businessAccountId, itemType: 'User', itemId: id, event: 'update', whodunnit: auth.fullName,
        changes: { status: ['deactivated', statusOf({ ...before, active: true })] },
      });
    });
    return this.get(auth, id);
  }

  /**
   * Every change to the business's users starts here: the administrators' rows locked in one order (lockAdmins), then
   * the caller checked again, since they may have been deactivated or demoted after their request was authenticated
   * (by another administrator's change this one waited for).
   */
  private async lockAdminsAsCaller(tx: DbOrTx, auth: AuthContext): Promise<void> {
    await lockAdmins(tx, auth.businessAccountId);
    const caller = await findBusinessUser(tx, auth.businessAccountId, auth.userId);
    if (!caller?.active) throw deactivatedCaller();
    if (caller.role !== 'ADMIN') throw forbidden('Your role does not allow this action.');
  }

  /** 409 when the change would take the caller's own administrator rights, or the business's last active ADMIN. */
  private async assertAdminRemains(tx: DbOrTx, auth: AuthContext, target: UserRow, change: 'demote' | 'deactivate') {
    if (target.id === auth.userId) {
      throw conflict(change === 'demote'
        ? 'You cannot change your own role: ask another administrator to do it.'
        : 'You cannot deactivate your own account: ask another administrator to do it.', 'SELF_CHANGE');
    }
    const others = await lockOtherActiveAdmins(tx, auth.businessAccountId, target.id);
    if (target.active && target.password_hash !== null && others.length === 0) {
      throw conflict(`${fullName(target)} is the business's last active administrator: it must keep at least one. `
        + 'Make another user an administrator first.', 'LAST_ADMIN');
    }
  }

  /**
   * The associated practitioners a role takes: at least one of the business's practitioners for PRACTITIONER, none
   * for the other roles. Problems are added to `problems` as "field: sentence".
   */
  private async practitionersFor(auth: AuthContext, role: Role, ids: readonly number[], problems: string[], db: DbOrTx = this.ctx.db) {
    const unique = [...new Set(ids)];
    if (role !== 'PRACTITIONER') {
      if (unique.length) problems.push('associated_practitioner_ids: only a practitioner account has associated practitioners.');
      return [];
    }
    if (!unique.length) problems.push('associated_practitioner_ids: choose at least one practitioner this user works as.');
    const names = await practitionerNames(db, auth.businessAccountId, unique);
    if (names.size !== unique.length) problems.push('associated_practitioner_ids: choose practitioners of your business.');
    return unique;
  }

  private async email(auth: AuthContext, user: UserRow, link: string): Promise<void> {
    const found = await findUserById(this.ctx.db, user.id);
    await this.invitations.emailInvitation(found!, link, auth.fullName);
  }

  private async find(auth: AuthContext, id: number): Promise<UserRow> {
    const user = await findBusinessUser(this.ctx.db, auth.businessAccountId, id);
    if (!user) throw notFound('User');
    return user;
  }

  private async get(auth: AuthContext, id: number): Promise<Schemas['BusinessUser']> {
    const [dto] = await this.dtos(auth.businessAccountId, [await this.find(auth, id)]);
    return dto;
  }

  private async dtos(businessAccountId: number, rows: readonly UserRow[]): Promise<Schemas['BusinessUser'][]> {
    const names = await practitionerNames(this.ctx.db, businessAccountId, [...new Set(rows.flatMap((row) => row.associated_practitioner_ids))]);
    const expiries = await invitationExpiries(this.ctx.db, rows.filter((row) => statusOf(row) === 'invited').map((row) => row.id));
    return rows.map((user) => ({
      id: user.id,
      email: user.email,
      first_name: user.first_name,
      last_name: user.last_name,
      full_name: fullName(user),
      role: user.role,
      associated_practitioners: user.associated_practitioner_ids.map((id) => ({ id, full_name: names.get(id) ?? 'A removed practitioner' })),
      status: statusOf(user),
      last_login_at: user.last_login_at ? new Date(user.last_login_at).toISOString() : null,
      invitation_expires_at: expiries.get(user.id)?.toISOString() ?? null,
    }));
  }
}
