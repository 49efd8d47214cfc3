import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { BotChallengeCheck } from '../bot-challenges/index.ts';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';

/** What authorize keeps for the callback (the outer flow). */
export type OuterFlow = {
  type: 'authenticate' | 'link';
  /** The user to link to, or the anonymous user a sign-up upgrades. */
  userId: string | null;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  providerScope: string | null;
  errorRedirectUrl: string | null;
  afterCallbackRedirectUrl: string | null;
  /** The provider PKCE verifier in JSON mode; in redirect mode it is only in the browser's cookie. */
  codeVerifier: string | null;
  /**
   * The bot challenge of a sign-in/sign-up flow, verified at authorize (where Stack's SDKs send the
   * token) and enforced at the callback only if the flow creates a user. Absent on link flows.
   */
  botChallenge?: BotChallengeCheck;
  /** The nonce the ID token of a project's own OpenID provider must carry. */
  nonce?: string;
};

export async function insertFlow(
  db: DbHandle,
  flow: { innerState: string; projectId: ProjectId; providerConfigId: string; data: OuterFlow; expiresAt: Date },
): Promise<void> {
  await kyselyOf(db)
    .insertInto('oauth_flow')
    .values({
      inner_state: flow.innerState,
      project_id: flow.projectId,
      provider_config_id: flow.providerConfigId,
      data: JSON.stringify(flow.data),
      expires_at: flow.expiresAt,
    })
    .execute();
  // Abandoned flows are deleted by the expired-rows cleanup (modules/administration/maintenance).
}

export type StoredFlow = { projectId: ProjectId; providerConfigId: string; data: OuterFlow; expiresAt: Date };

/**
 * The flow of a provider's callback, by the state it carries: the callback names no project, so this
 * lookup spans them (the state is 128 random bits, known only to this flow's browser and provider).
 */
export async function findFlowInAnyProject(db: DbHandle, innerState: string): Promise<StoredFlow | undefined> {
  const row = await kyselyOf(db).selectFrom('oauth_flow').selectAll().where('inner_state', '=', innerState).executeTakeFirst();
  return row
    ? { projectId: row.project_id, providerConfigId: row.provider_config_id, data: row.data as OuterFlow, expiresAt: row.expires_at }
    : undefined;
}

/** Removes the flow; false when another request already did (a state is used once). */
export async function deleteFlow(db: DbHandle, projectId: ProjectId, innerState: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('oauth_flow')
    .where('project_id', '=', projectId)
    .where('inner_state', '=', innerState)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function insertAuthorizationCode(
  db: DbHandle,
  code: {
    codeHash: string;
    projectId: ProjectId;
    userId: string;
    redirectUri: string;
    codeChallenge: string;
    isNewUser: boolean;
    afterCallbackRedirectUrl: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await kyselyOf(db)
    .insertInto('oauth_authorization_code')
    .values({
      code_hash: code.codeHash,
      project_id: code.projectId,
      user_id: code.userId,
      redirect_uri: code.redirectUri,
      code_challenge: code.codeChallenge,
      is_new_user: code.isNewUser,
      after_callback_redirect_url: code.afterCallbackRedirectUrl,
      expires_at: code.expiresAt,
    })
    .execute();
}

/** Marks an unused, unexpired code of the project used and returns it; undefined when there is none. */
export async function useAuthorizationCode(db: DbHandle, projectId: ProjectId, codeHash: string) {
  return kyselyOf(db)
    .updateTable('oauth_authorization_code')
    .set({ used_at: new Date() })
    .where('code_hash', '=', codeHash)
    .where('project_id', '=', projectId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date())
    .returningAll()
    .executeTakeFirst();
}
