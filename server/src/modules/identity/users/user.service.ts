import { randomUUID } from 'node:crypto';
import { UserEmailAlreadyExistsError, UserFieldInvalidError, UserNotFoundError } from '@gatehouse/protocol/errors';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import { Hook, Port } from '../../../kernel/hook.ts';
import { hashPassword } from '../../../lib/passwords/password-hasher.ts';
import type { PasswordChecker } from '../../../lib/passwords/password-policy.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { EventLog } from '../../platform/events/index.ts';
import {
  clearSelectedTeam,
  deletePrimaryEmail,
  deleteUserRow,
  findAuthEmailChannel,
  findUserRecord,
  findUserRecordByAuthEmail,
  hasVerifiedEmail,
  insertContactChannel,
  insertUser,
  listUserRecords,
  readSearchStatisticsAcrossProjects,
  updatePrimaryEmail,
  updateUserColumns,
  type UserListFilter,
} from './user.repository.ts';
import { frequentTrigrams, searchProbe } from './user-search.ts';
import { type TeamView, toServerUser } from './user-views.ts';
import { assertConsistentWrite, jsonColumn, type ProviderAccountImport, type UserWrite } from './user-writes.ts';
import { placeOfIp } from '../../../lib/place/ip-place.ts';

/** How long the planner statistics behind the search's probes are kept (autovacuum refreshes them far less often). */
const searchStatisticsTtlMs = 10 * 60_000;

export type SignUpMethod = 'password' | 'otp' | 'oauth' | 'anonymous' | 'server' | 'passkey';

/** A sign-up by an end user (not an anonymous user, not a server-side create): what the sign-up rules judge. */
export type SignUpAttempt = { method: 'password' | 'otp' | 'oauth' | 'passkey'; oauthProvider?: string | null } & SignUpSignals;

/** What the request told about the person signing up, for the risk scores: the client IP and the bot challenge's result. */
export type SignUpSignals = { ip?: string; botChallenge?: 'off' | 'passed' | 'failed' | 'missing' | 'unavailable' };

/** What the sign-up rules let through: a restriction for the new user, and the statistics written in the creating transaction. */
export type SignUpAdmission = {
  restriction?: { privateDetails: string };
  /** Stack's `risk_scores.sign_up` (0-100), stored on the user. */
  riskScores?: { bot: number; free_trial_abuse: number };
  /** Gatehouse's own: what the matched rules' `action.serverMetadata` merge into the new user's server metadata. */
  serverMetadata?: Record<string, unknown>;
  record(trx: DbHandle, userId: string): Promise<void>;
};

/** Provided by the sign-up-rules module: throws SIGN_UP_REJECTED, or admits the sign-up. */
export interface SignUpGate {
  admit(project: Project, attempt: SignUpAttempt & { email: string | null; countryCode: string | null }): Promise<SignUpAdmission>;
}

const signUpMethods: ReadonlySet<SignUpMethod> = new Set(['password', 'otp', 'oauth', 'passkey']);

/** Links an imported provider account to the user being created, in the creating transaction, with the rules of `POST /oauth-providers`. */
export type ProviderAccountLinker = (trx: DbHandle, project: Project, userId: string, account: ProviderAccountImport) => Promise<void>;

/** What users ask of the teams module (which stands above them). */
export interface UserTeams {
  isMember(trx: DbHandle, projectId: ProjectId, teamId: string, userId: string): Promise<boolean>;
  /** The views of these teams of the project, by id. */
  views(projectId: ProjectId, teamIds: readonly string[]): Promise<Map<string, TeamView>>;
}

/** The write with the user restricted by a sign-up rule (Stack's way: restricted by admin, the rule named in the private details). */
function restrictedWrite(write: UserWrite, current: UserRecord | null, privateDetails: string): UserWrite {
  const existing = write.restricted_by_admin_private_details ?? current?.restricted_by_admin_private_details;
  return {
    ...write,
    restricted_by_admin: true,
    restricted_by_admin_private_details: existing ? `${existing}\n\n${privateDetails}` : privateDetails,
  };
}

/** The write with the rules' metadata merged over the user's server metadata (the sign-up's own keys, an anonymous user's kept). */
function withRuleMetadata(write: UserWrite, current: UserRecord | null, metadata: Record<string, unknown>): UserWrite {
  const base = write.server_metadata !== undefined ? write.server_metadata : (current?.server_metadata ?? null);
  const existing = typeof base === 'object' && base !== null && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
  return { ...write, server_metadata: { ...existing, ...metadata } };
}

/** Users and their primary email: the rules of create, update and delete, each in one transaction. */
export class UserService {
  /** Runs in the creating transaction (default permissions, the personal team), before `user.created` is recorded. */
  readonly created = new Hook<[trx: DbHandle, project: Project, user: UserRecord]>();
  /** Runs in the updating transaction with the write applied (passkeys, sessions, MFA state react to it). */
  readonly updated = new Hook<[trx: DbHandle, project: Project, userId: string, write: UserWrite]>();
  /** Provided by the OAuth module: links the provider accounts `POST /users` imports. */
  readonly accountImport = new Port<ProviderAccountLinker>('the provider account import of POST /users');
  /** Provided by the teams module. */
  readonly teams = new Port<UserTeams>('the teams of users');
  /** Provided by the sign-up-rules module; asked at every end-user sign-up, the one place users are created or upgraded. */
  readonly signUpGate = new Port<SignUpGate>('the sign-up rules');

  private searchStatistics?: { loading: Promise<{ email: Set<string>; displayName: Set<string> }>; expiresAt: number };

  constructor(
    private readonly db: DbHandle,
    private readonly events: EventLog,
    readonly passwords: PasswordChecker,
  ) {}

  find(projectId: ProjectId, userId: string): Promise<UserRecord | undefined> {
    return findUserRecord(this.db, projectId, userId);
  }

  /** As `find`, in a transaction the caller holds. */
  findIn(trx: DbHandle, projectId: ProjectId, userId: string): Promise<UserRecord | undefined> {
    return findUserRecord(trx, projectId, userId);
  }

  async get(projectId: ProjectId, userId: string): Promise<UserRecord> {
    const user = await this.find(projectId, userId);
    if (!user) throw new UserNotFoundError();
    return user;
  }

  findByAuthEmail(projectId: ProjectId, email: string): Promise<UserRecord | undefined> {
    return findUserRecordByAuthEmail(this.db, projectId, email);
  }

  /** Who signs in with this email, and whether they proved they own it. */
  findAuthEmail(projectId: ProjectId, email: string): Promise<{ user_id: string; is_verified: boolean } | undefined> {
    return findAuthEmailChannel(this.db, projectId, email);
  }

  /** Whether the user has proved it owns this email. */
  hasVerifiedEmail(projectId: ProjectId, userId: string, email: string): Promise<boolean> {
    return hasVerifiedEmail(this.db, projectId, userId, email);
  }

  async list(projectId: ProjectId, filter: UserListFilter): Promise<UserRecord[]> {
    if (!filter.query) return listUserRecords(this.db, projectId, filter);
    const frequent = await this.frequentSearchTrigrams();
    const probes = { email: searchProbe(filter.query, frequent.email), displayName: searchProbe(filter.query, frequent.displayName) };
    return listUserRecords(this.db, projectId, { ...filter, probes });
  }

  /** The frequent trigrams of emails and display names (user-search.ts), read again after `searchStatisticsTtlMs`. */
  private frequentSearchTrigrams(): Promise<{ email: Set<string>; displayName: Set<string> }> {
    const now = Date.now();
    if (!this.searchStatistics || this.searchStatistics.expiresAt <= now) {
      const loading = readSearchStatisticsAcrossProjects(this.db).then(
        ({ email, displayName }) => ({
          email: email ? frequentTrigrams(email) : new Set<string>(),
          displayName: displayName ? frequentTrigrams(displayName) : new Set<string>(),
        }),
        // Without statistics the whole query goes to the index, as it would without this: slower, the
        // same rows. A failed read (the pool busy, say) is tried again by the next search.
        () => {
          if (this.searchStatistics === entry) this.searchStatistics = undefined;
          return { email: new Set<string>(), displayName: new Set<string>() };
        },
      );
      const entry = { loading, expiresAt: now + searchStatisticsTtlMs };
      this.searchStatistics = entry;
    }
    return this.searchStatistics.loading;
  }

  /** The views of the users' selected teams, by team id (for `selected_team`). */
  async selectedTeams(projectId: ProjectId, users: readonly Pick<UserRecord, 'selected_team_id'>[]): Promise<Map<string, TeamView>> {
    const ids = [...new Set(users.map((user) => user.selected_team_id).filter((id): id is string => id !== null))];
    return ids.length === 0 ? new Map() : this.teams.provider.views(projectId, ids);
  }

  /** `oauthProvider`: the provider type of an OAuth sign-up (the rules' `oauthProvider`). */
  async create(
    project: Project,
    write: UserWrite,
    signUpMethod: SignUpMethod,
    oauthProvider?: string,
    signals: SignUpSignals = {},
  ): Promise<UserRecord> {
    assertConsistentWrite(write, 'create');
    const passwordHash = await this.passwordHashOf(project, write);
    // A sign-up's country is where its IP address is, unless given (the rules' `countryCode` and the countries chart).
    if (signUpMethods.has(signUpMethod) && write.country_code === undefined) {
      const place = await placeOfIp(signals.ip);
      if (place?.countryCode) write = { ...write, country_code: place.countryCode };
    }
    const admission = signUpMethods.has(signUpMethod)
      ? await this.admit(project, { method: signUpMethod as SignUpAttempt['method'], oauthProvider, ...signals }, write, null)
      : undefined;
    if (admission?.restriction) write = restrictedWrite(write, null, admission.restriction.privateDetails);
    if (admission?.serverMetadata) write = withRuleMetadata(write, null, admission.serverMetadata);
    const id = randomUUID();
    return this.inTransaction(write.primary_email, async (trx) => {
      await insertUser(trx, {
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
        language: write.language ?? null,
        risk_scores: admission?.riskScores ? JSON.stringify({ sign_up: admission.riskScores }) : null,
        sign_up_method: signUpMethod,
      });
      if (write.primary_email) {
        await insertContactChannel(trx, {
          id: randomUUID(),
          project_id: project.id,
          user_id: id,
          value: write.primary_email,
          is_primary: true,
          is_verified: write.primary_email_verified ?? false,
          used_for_auth: write.primary_email_auth_enabled ?? false,
        });
      }
      // One after the other: each link's checks see the links before it (two sign-in accounts of one type are refused).
      for (const account of write.oauth_providers ?? []) await this.accountImport.provider(trx, project, id, account);
      await admission?.record(trx, id);
      await this.created.run(trx, project, (await findUserRecord(trx, project.id, id)) as UserRecord);
      const created = (await findUserRecord(trx, project.id, id)) as UserRecord;
      await this.events.record(trx, project.id, 'user.created', toServerUser(project, created));
      return created;
    });
  }

  /** `signUp`: an anonymous user signing up (`is_anonymous: false`), judged by the sign-up rules like a new user. */
  async update(project: Project, userId: string, write: UserWrite, signUp?: SignUpAttempt): Promise<UserRecord> {
    assertConsistentWrite(write, 'update');
    const passwordHash = await this.passwordHashOf(project, write);
    const upgrading = signUp ? await this.find(project.id, userId) : undefined;
    const admission = upgrading?.is_anonymous ? await this.admit(project, signUp as SignUpAttempt, write, upgrading) : undefined;
    if (admission?.restriction) write = restrictedWrite(write, upgrading ?? null, admission.restriction.privateDetails);
    if (admission?.serverMetadata) write = withRuleMetadata(write, upgrading ?? null, admission.serverMetadata);
    return this.inTransaction(write.primary_email, async (trx) => {
      const current = await findUserRecord(trx, project.id, userId);
      if (!current) throw new UserNotFoundError();
      await admission?.record(trx, userId);
      if (write.selected_team_id && !(await this.teams.provider.isMember(trx, project.id, write.selected_team_id, userId))) {
        throw new UserFieldInvalidError({ field: 'selected_team_id' }, 'selected_team_id must be a team the user is a member of.');
      }
      await updateUserColumns(trx, project.id, userId, {
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
        language: write.language,
        is_anonymous: write.is_anonymous === false ? false : undefined,
        risk_scores: admission?.riskScores ? JSON.stringify({ sign_up: admission.riskScores }) : undefined,
        password_hash: write.password === null ? null : passwordHash,
        totp_secret:
          write.totp_secret_base64 === undefined
            ? undefined
            : write.totp_secret_base64
              ? Buffer.from(write.totp_secret_base64, 'base64')
              : null,
      });
      await this.writePrimaryEmail(trx, project.id, current, write);
      await this.updated.run(trx, project, userId, write);
      const updated = (await findUserRecord(trx, project.id, userId)) as UserRecord;
      await this.events.record(trx, project.id, 'user.updated', toServerUser(project, updated));
      return updated;
    });
  }

  async delete(project: Project, userId: string): Promise<void> {
    await inTransaction(this.db, async (trx) => {
      if (!(await deleteUserRow(trx, project.id, userId))) throw new UserNotFoundError();
      await this.events.record(trx, project.id, 'user.deleted', { id: userId, teams: [] });
    });
  }

  /** Replaces the stored hash (bcrypt import upgraded to argon2id at sign-in). */
  async replacePasswordHash(projectId: ProjectId, userId: string, passwordHash: string): Promise<void> {
    await updateUserColumns(this.db, projectId, userId, { password_hash: passwordHash });
  }

  /** Selects a team for the user, in the caller's transaction (the personal team at sign-up). */
  async selectTeam(trx: DbHandle, projectId: ProjectId, userId: string, teamId: string): Promise<void> {
    await updateUserColumns(trx, projectId, userId, { selected_team_id: teamId });
  }

  /** Unselects the team if the user had it selected (they left it). */
  async unselectTeam(projectId: ProjectId, userId: string, teamId: string): Promise<void> {
    await clearSelectedTeam(this.db, projectId, userId, teamId);
  }

  private async passwordHashOf(project: Project, write: UserWrite): Promise<string | undefined> {
    if (typeof write.password === 'string') {
      await this.passwords.assertAcceptable(project, write.password);
      return hashPassword(write.password);
    }
    return write.password_hash;
  }

  private admit(project: Project, attempt: SignUpAttempt, write: UserWrite, current: UserRecord | null): Promise<SignUpAdmission> {
    const email = write.primary_email !== undefined ? write.primary_email : (current?.primary_email ?? null);
    const countryCode = write.country_code !== undefined ? write.country_code : (current?.country_code ?? null);
    return this.signUpGate.provider.admit(project, { ...attempt, email, countryCode });
  }

  /** Creating or changing the primary email: an address already used for auth by another user is a conflict. */
  private async writePrimaryEmail(trx: DbHandle, projectId: ProjectId, current: UserRecord, write: UserWrite): Promise<void> {
    const { primary_email: email, primary_email_verified: verified, primary_email_auth_enabled: authEnabled } = write;
    if (email === null) {
      await deletePrimaryEmail(trx, projectId, current.id);
      return;
    }
    if (email !== undefined && email.toLowerCase() !== current.primary_email?.toLowerCase()) {
      if (current.primary_email === null) {
        await insertContactChannel(trx, {
          id: randomUUID(),
          project_id: projectId,
          user_id: current.id,
          value: email,
          is_primary: true,
          is_verified: verified ?? false,
          used_for_auth: authEnabled ?? true,
        });
        return;
      }
      await updatePrimaryEmail(trx, projectId, current.id, {
        value: email,
        is_verified: verified ?? false,
        used_for_auth: authEnabled ?? current.primary_email_auth_enabled ?? false,
      });
      return;
    }
    if (verified === undefined && authEnabled === undefined) return;
    if (current.primary_email === null) throw new PlainHttpError(400, 'The user has no primary email.');
    await updatePrimaryEmail(trx, projectId, current.id, { is_verified: verified, used_for_auth: authEnabled });
  }

  private async inTransaction<T>(email: string | null | undefined, work: (trx: DbHandle) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.db, work);
    } catch (error) {
      if (email && isUniqueViolation(error)) throw new UserEmailAlreadyExistsError({ email, would_work_if_email_was_verified: false });
      throw error;
    }
  }
}
