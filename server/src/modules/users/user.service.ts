import { randomUUID } from 'node:crypto';
import { UserEmailAlreadyExistsError, UserNotFoundError } from '@gatehouse/protocol/errors';
import type { Kysely, Updateable } from 'kysely';
import type { Database, UserTable } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { PlainHttpError } from '../../lib/plain-http-error.ts';
import { recordEvent } from '../events/event.repository.ts';
import { resetMfaState } from '../mfa/mfa.repository.ts';
import { hashPassword } from '../passwords/password-hasher.ts';
import { assertPasswordPolicy } from '../passwords/password-policy.ts';
import type { Project } from '../projects/project.service.ts';
import { deletePasskeysOfUser } from '../passkeys/passkey.repository.ts';
import { deleteSessionsOfUser } from '../sessions/session.repository.ts';
import {
  deleteUserRow,
  findAuthEmailChannel,
  findUserRecord,
  findUserRecordByAuthEmail,
  listUserRecords,
  type UserListFilter,
  type UserRecord,
} from './user.repository.ts';
import { toServerUser } from './user-views.ts';
import { assertConsistentWrite, jsonColumn, type ProviderAccountImport, type UserWrite } from './user-writes.ts';

export type SignUpMethod = 'password' | 'otp' | 'oauth' | 'anonymous' | 'server' | 'passkey';

/** Users and their primary email: the rules of create, update and delete, each in one transaction. */
export type UserCreatedHook = (trx: Kysely<Database>, project: Project, user: UserRecord) => Promise<void>;
/** Links an imported provider account to the user being created, in the creating transaction, with the rules of `POST /oauth-providers`. */
export type ProviderAccountLinker = (
  trx: Kysely<Database>,
  project: Project,
  userId: string,
  account: ProviderAccountImport,
) => Promise<void>;

const noLinker: ProviderAccountLinker = async () => {
  throw new Error('This UserService was built without a provider account linker.');
};

export class UserService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Runs in the creating transaction (default permissions, the personal team). */
    private readonly onUserCreated: UserCreatedHook = async () => {},
    private readonly linkProviderAccount: ProviderAccountLinker = noLinker,
  ) {}

  find(projectId: string, userId: string): Promise<UserRecord | undefined> {
    return findUserRecord(this.db, projectId, userId);
  }

  async get(projectId: string, userId: string): Promise<UserRecord> {
    const user = await this.find(projectId, userId);
    if (!user) throw new UserNotFoundError();
    return user;
  }

  findByAuthEmail(projectId: string, email: string): Promise<UserRecord | undefined> {
    return findUserRecordByAuthEmail(this.db, projectId, email);
  }

  /** Who signs in with this email, and whether they proved they own it. */
  findAuthEmail(projectId: string, email: string): Promise<{ user_id: string; is_verified: boolean } | undefined> {
    return findAuthEmailChannel(this.db, projectId, email);
  }

  list(projectId: string, filter: UserListFilter): Promise<UserRecord[]> {
    return listUserRecords(this.db, projectId, filter);
  }

  async create(project: Project, write: UserWrite, signUpMethod: SignUpMethod): Promise<UserRecord> {
    assertConsistentWrite(write, 'create');
    const passwordHash = await this.passwordHashOf(write);
    const id = randomUUID();
    return this.inTransaction(write.primary_email, async (trx) => {
      await trx
        .insertInto('project_user')
        .values({
          id,
          project_id: project.id,
          display_name: write.display_name ?? null,
          profile_image_url: write.profile_image_url ?? null,
          client_metadata: jsonColumn(write.client_metadata) ?? null,
          client_read_only_metadata: jsonColumn(write.client_read_only_metadata) ?? null,
          server_metadata: jsonColumn(write.server_metadata) ?? null,
          is_anonymous: write.is_anonymous ?? false,
          password_hash: passwordHash ?? null,
          otp_auth_enabled: write.otp_auth_enabled ?? false,
          totp_secret: write.totp_secret_base64 ? Buffer.from(write.totp_secret_base64, 'base64') : null,
          selected_team_id: null,
          restricted_by_admin: write.restricted_by_admin ?? false,
          restricted_by_admin_reason: write.restricted_by_admin_reason ?? null,
          restricted_by_admin_private_details: write.restricted_by_admin_private_details ?? null,
          country_code: write.country_code ?? null,
          risk_scores: null,
          sign_up_method: signUpMethod,
        })
        .execute();
      if (write.primary_email) {
        await trx
          .insertInto('contact_channel')
          .values({
            id: randomUUID(),
            project_id: project.id,
            user_id: id,
            value: write.primary_email,
            is_primary: true,
            is_verified: write.primary_email_verified ?? false,
            used_for_auth: write.primary_email_auth_enabled ?? false,
          })
          .execute();
      }
      // One after the other: each link's checks see the links before it (two sign-in accounts of one type are refused).
      for (const account of write.oauth_providers ?? []) await this.linkProviderAccount(trx, project, id, account);
      await this.onUserCreated(trx, project, (await findUserRecord(trx, project.id, id)) as UserRecord);
      const created = (await findUserRecord(trx, project.id, id)) as UserRecord;
      await recordEvent(trx, project.id, 'user.created', toServerUser(project, created));
      return created;
    });
  }

  async update(project: Project, userId: string, write: UserWrite): Promise<UserRecord> {
    assertConsistentWrite(write, 'update');
    const passwordHash = await this.passwordHashOf(write);
    const updated = await this.inTransaction(write.primary_email, async (trx) => {
      const current = await findUserRecord(trx, project.id, userId);
      if (!current) throw new UserNotFoundError();
      if (write.selected_team_id) {
        const member = await trx
          .selectFrom('team_member')
          .select('team_id')
          .where('team_id', '=', write.selected_team_id)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!member) throw new PlainHttpError(400, 'selected_team_id must be a team the user is a member of.');
      }
      const columns: Updateable<UserTable> = {
        display_name: write.display_name,
        profile_image_url: write.profile_image_url,
        client_metadata: jsonColumn(write.client_metadata),
        client_read_only_metadata: jsonColumn(write.client_read_only_metadata),
        server_metadata: jsonColumn(write.server_metadata),
        otp_auth_enabled: write.otp_auth_enabled,
        selected_team_id: write.selected_team_id,
        restricted_by_admin: write.restricted_by_admin,
        restricted_by_admin_reason: write.restricted_by_admin_reason,
        restricted_by_admin_private_details: write.restricted_by_admin_private_details,
        country_code: write.country_code,
        is_anonymous: write.is_anonymous === false ? false : undefined,
        password_hash: write.password === null ? null : passwordHash,
        totp_secret:
          write.totp_secret_base64 === undefined
            ? undefined
            : write.totp_secret_base64
              ? Buffer.from(write.totp_secret_base64, 'base64')
              : null,
      };
      const defined = Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
      if (Object.keys(defined).length > 0) await trx.updateTable('project_user').set(defined).where('id', '=', userId).execute();
      await this.writePrimaryEmail(trx, project.id, current, write);
      // Turning passkey sign-in off removes the user's passkeys (it is turned on by registering one).
      if (write.passkey_auth_enabled === false) await deletePasskeysOfUser(trx, project.id, userId);
      if (write.password !== undefined || write.password_hash !== undefined) await deleteSessionsOfUser(trx, userId);
      // A new or removed TOTP secret invalidates the recovery codes and the replay guard of the old one.
      if (write.totp_secret_base64 !== undefined) await resetMfaState(trx, userId);
      const updatedRecord = (await findUserRecord(trx, project.id, userId)) as UserRecord;
      await recordEvent(trx, project.id, 'user.updated', toServerUser(project, updatedRecord));
      return updatedRecord;
    });
    return updated;
  }

  async delete(project: Project, userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (!(await deleteUserRow(trx, project.id, userId))) throw new UserNotFoundError();
      await recordEvent(trx, project.id, 'user.deleted', { id: userId, teams: [] });
    });
  }

  /** Replaces the stored hash (bcrypt import upgraded to argon2id at sign-in). */
  async replacePasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db.updateTable('project_user').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
  }

  private async passwordHashOf(write: UserWrite): Promise<string | undefined> {
    if (typeof write.password === 'string') {
      assertPasswordPolicy(write.password);
      return hashPassword(write.password);
    }
    return write.password_hash;
  }

  /** Creating or changing the primary email: an address already used for auth by another user is a conflict. */
  private async writePrimaryEmail(trx: Kysely<Database>, projectId: string, current: UserRecord, write: UserWrite): Promise<void> {
    const { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: authEnabled } = write;
    const primary = trx.updateTable('contact_channel').where('user_id', '=', current.id).where('is_primary', '=', true);
    if (email === null) {
      await trx.deleteFrom('contact_channel').where('user_id', '=', current.id).where('is_primary', '=', true).execute();
      return;
    }
    if (email !== undefined && email.toLowerCase() !== current.primary_email?.toLowerCase()) {
      if (current.primary_email === null) {
        await trx
          .insertInto('contact_channel')
          .values({
            id: randomUUID(),
            project_id: projectId,
            user_id: current.id,
            value: email,
            is_primary: true,
            is_verified: verified ?? false,
            used_for_auth: authEnabled ?? true,
          })
          .execute();
        return;
      }
      await primary
        .set({ value: email, is_verified: verified ?? false, used_for_auth: authEnabled ?? current.primary_email_auth_enabled ?? false })
        .execute();
      return;
    }
    if (verified === undefined && authEnabled === undefined) return;
    if (current.primary_email === null) throw new PlainHttpError(400, 'The user has no primary email.');
    await primary.set({ is_verified: verified, used_for_auth: authEnabled }).execute();
  }

  private async inTransaction<T>(email: string | null | undefined, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(work);
    } catch (error) {
      if (email && isUniqueViolation(error)) throw new UserEmailAlreadyExistsError({ email, would_work_if_email_was_verified: false });
      throw error;
    }
  }
}
