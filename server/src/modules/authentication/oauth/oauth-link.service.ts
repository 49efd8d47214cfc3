import type { components } from '@gatehouse/protocol/api-types';
import { OauthProviderAccountIdAlreadyUsedForSignInError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { OAuthAccountRow } from './oauth.table.ts';
import { isUniqueViolation } from '../../../db/unique-violation.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { AccessType } from '../../../request-context/access-type.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { ProviderAccountImport } from '../../identity/users/index.ts';
import { deleteAccount, findAccount, findSignInAccount, insertAccount, listAccounts, updateAccount } from './oauth-account.repository.ts';
import { isProviderType, type ProviderType } from './provider-table.ts';
import { providerTypeOf } from './resolve-provider.ts';

type ServerOAuthProvider = components['schemas']['ServerOAuthProvider'];
type ClientOAuthProvider = components['schemas']['ClientOAuthProvider'];

/** A linked account as the caller may see it: `account_id` only for server and admin access. */
export function toOAuthProvider(row: OAuthAccountRow, accessType: AccessType): ServerOAuthProvider | ClientOAuthProvider {
  const view: ClientOAuthProvider = {
    id: row.id,
    user_id: row.user_id,
    provider_config_id: row.provider_config_id,
    type: row.provider_type as ProviderType,
    ...(row.email !== null ? { email: row.email } : {}),
    allow_sign_in: row.allow_sign_in,
    allow_connected_accounts: row.allow_connected_accounts,
  };
  return accessType === 'client' ? view : { ...view, account_id: row.account_id };
}

export type LinkCreate = {
  providerConfigId: string;
  accountId: string;
  email?: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
};
export type LinkUpdate = { allow_sign_in?: boolean; allow_connected_accounts?: boolean; email?: string | null; account_id?: string };

const notFound = () => new PlainHttpError(404, 'OAuth provider link not found.');

/** A user's linked provider accounts (`/oauth-providers`): one sign-in account per provider type and user, one user per sign-in account. */
export class OAuthLinkService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
  ) {}

  list(projectId: ProjectId, userId?: string): Promise<OAuthAccountRow[]> {
    return listAccounts(this.db, projectId, { userId });
  }

  async get(projectId: ProjectId, userId: string, id: string): Promise<OAuthAccountRow> {
    const row = await findAccount(this.db, projectId, userId, id);
    if (!row) throw notFound();
    return row;
  }

  async create(project: Project, userId: string, link: LinkCreate): Promise<OAuthAccountRow> {
    await this.users.get(project.id, userId);
    return this.createFor(this.db, project, userId, link);
  }

  /**
   * The rules and the insert of `create` in `db`, for a user the caller has just read or written
   * there: `POST /users` links the imported accounts in the transaction that creates the user.
   */
  async createFor(db: DbHandle, project: Project, userId: string, link: LinkCreate): Promise<OAuthAccountRow> {
    const providers = project.config.auth.oauth.providers;
    const config = Object.hasOwn(providers, link.providerConfigId) ? providers[link.providerConfigId] : undefined;
    const type = config ? providerTypeOf(link.providerConfigId, config) : undefined;
    if (!type || !isProviderType(type)) throw new PlainHttpError(404, `The project has no OAuth provider ${link.providerConfigId}.`);
    if (link.allowSignIn) await assertSignInFree(db, project.id, userId, type, link.providerConfigId, link.accountId);
    return writeLink(() =>
      insertAccount(db, project.id, {
        user_id: userId,
        provider_config_id: link.providerConfigId,
        provider_type: type,
        account_id: link.accountId,
        email: link.email ?? null,
        allow_sign_in: link.allowSignIn,
        allow_connected_accounts: link.allowConnectedAccounts,
      }),
    );
  }

  /** A provider account imported with a new user (`POST /users`): it allows sign-in and connected accounts (see ServerUserCreate in the spec). */
  async linkImported(trx: DbHandle, project: Project, userId: string, account: ProviderAccountImport): Promise<void> {
    await this.createFor(trx, project, userId, {
      providerConfigId: account.id,
      accountId: account.account_id,
      email: account.email ?? null,
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
  }

  async update(projectId: ProjectId, userId: string, id: string, changes: LinkUpdate): Promise<OAuthAccountRow> {
    const row = await this.get(projectId, userId, id);
    const accountId = changes.account_id ?? row.account_id;
    if ((changes.allow_sign_in ?? row.allow_sign_in) && (changes.allow_sign_in === true || accountId !== row.account_id)) {
      await assertSignInFree(this.db, projectId, userId, row.provider_type, row.provider_config_id, accountId, row.id);
    }
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(set).length === 0) return row;
    return writeLink(() => updateAccount(this.db, projectId, row.id, set));
  }

  async delete(projectId: ProjectId, userId: string, id: string): Promise<void> {
    await deleteAccount(this.db, projectId, (await this.get(projectId, userId, id)).id);
  }
}

/** One sign-in account per provider type and user (plain 400), one user per sign-in account; `exceptId` is the link being changed. */
async function assertSignInFree(
  db: DbHandle,
  projectId: ProjectId,
  userId: string,
  type: string,
  configId: string,
  accountId: string,
  exceptId?: string,
): Promise<void> {
  const links = await listAccounts(db, projectId, { userId });
  if (links.some((link) => link.id !== exceptId && link.provider_type === type && link.allow_sign_in)) {
    throw new PlainHttpError(400, `The user already signs in with another ${type} account; only one per provider type may allow sign-in.`);
  }
  const taken = await findSignInAccount(db, projectId, configId, accountId);
  if (taken && taken.id !== exceptId) throw new OauthProviderAccountIdAlreadyUsedForSignInError();
}

/** A link write whose unique violations (a race past the checks) become the same answers as the checks. */
async function writeLink(work: () => Promise<OAuthAccountRow>): Promise<OAuthAccountRow> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'oauth_account_sign_in_idx')) throw new OauthProviderAccountIdAlreadyUsedForSignInError();
    if (isUniqueViolation(error, 'oauth_account_user_account_idx')) {
      throw new PlainHttpError(400, 'This provider account is already linked to the user.');
    }
    if (isUniqueViolation(error)) throw new PlainHttpError(400, 'Only one linked account per provider type may allow sign-in.');
    throw error;
  }
}
