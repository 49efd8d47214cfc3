import type { Selectable } from 'kysely';
import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { OAuthApplicationTable, OAuthProviderSettingsTable } from './oauth-provider.table.ts';

export type OAuthApplicationRow = Selectable<OAuthApplicationTable>;
export type OAuthApplicationValues = {
  client_id: string;
  client_secret: string | null;
  name: string;
  type: 'confidential' | 'public';
  redirect_uris: readonly string[];
  grant_types: readonly string[];
  scopes: readonly string[];
  logo_url: string | null;
  registered_dynamically?: boolean;
  custom_claims?: Record<string, string>;
};

// ---- applications ----

export function listApplications(db: DbHandle, projectId: ProjectId): Promise<OAuthApplicationRow[]> {
  return kyselyOf(db).selectFrom('oauth_application').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute();
}

export function findApplication(db: DbHandle, projectId: ProjectId, clientId: string): Promise<OAuthApplicationRow | undefined> {
  return kyselyOf(db)
    .selectFrom('oauth_application')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

export function insertApplication(db: DbHandle, projectId: ProjectId, values: OAuthApplicationValues): Promise<OAuthApplicationRow> {
  return kyselyOf(db)
    .insertInto('oauth_application')
    .values({
      project_id: projectId,
      ...values,
      redirect_uris: JSON.stringify(values.redirect_uris),
      grant_types: JSON.stringify(values.grant_types),
      scopes: JSON.stringify(values.scopes),
      custom_claims: JSON.stringify(values.custom_claims ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateApplication(
  db: DbHandle,
  projectId: ProjectId,
  clientId: string,
  values: Partial<Pick<OAuthApplicationValues, 'name' | 'redirect_uris' | 'scopes' | 'logo_url' | 'custom_claims'>>,
): Promise<OAuthApplicationRow | undefined> {
  const changes = {
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.logo_url !== undefined ? { logo_url: values.logo_url } : {}),
    ...(values.redirect_uris !== undefined ? { redirect_uris: JSON.stringify(values.redirect_uris) } : {}),
    ...(values.scopes !== undefined ? { scopes: JSON.stringify(values.scopes) } : {}),
    ...(values.custom_claims !== undefined ? { custom_claims: JSON.stringify(values.custom_claims) } : {}),
  };
  // An empty change is a read (an UPDATE with nothing to set is not SQL).
  if (Object.keys(changes).length === 0) return findApplication(db, projectId, clientId);
  return kyselyOf(db)
    .updateTable('oauth_application')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .returningAll()
    .executeTakeFirst();
}

/** Deletes the application and every code, token and grant issued to it (they stop working at once). */
export async function deleteApplication(db: DbHandle, projectId: ProjectId, clientId: string): Promise<boolean> {
  const deleted = await kyselyOf(db)
    .deleteFrom('oauth_application')
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  await kyselyOf(db).deleteFrom('oauth_provider_entity').where('project_id', '=', projectId).where('client_id', '=', clientId).execute();
  return deleted.numDeletedRows > 0n;
}

// ---- settings ----

export async function findSettings(db: DbHandle, projectId: ProjectId): Promise<Selectable<OAuthProviderSettingsTable>> {
  const row = await kyselyOf(db).selectFrom('oauth_provider_settings').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  return row ?? { project_id: projectId, consent_page_url: null, allow_dynamic_registration: false };
}

export async function upsertSettings(
  db: DbHandle,
  projectId: ProjectId,
  values: { consent_page_url?: string | null; allow_dynamic_registration?: boolean },
): Promise<Selectable<OAuthProviderSettingsTable>> {
  return kyselyOf(db)
    .insertInto('oauth_provider_settings')
    .values({ project_id: projectId, ...values })
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// ---- consents ----

export async function findConsent(db: DbHandle, projectId: ProjectId, userId: string, clientId: string): Promise<string[] | undefined> {
  const row = await kyselyOf(db)
    .selectFrom('oauth_consent')
    .select('scopes')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return row ? (row.scopes as string[]) : undefined;
}

export async function saveConsent(db: DbHandle, projectId: ProjectId, userId: string, clientId: string, scopes: readonly string[]) {
  const json = JSON.stringify(scopes);
  await kyselyOf(db)
    .insertInto('oauth_consent')
    .values({ project_id: projectId, user_id: userId, client_id: clientId, scopes: json })
    .onConflict((conflict) =>
      conflict.columns(['project_id', 'user_id', 'client_id']).doUpdateSet({ scopes: json, updated_at: new Date() }),
    )
    .execute();
}

export function listConsents(db: DbHandle, projectId: ProjectId, userId: string) {
  return kyselyOf(db)
    .selectFrom('oauth_consent')
    .innerJoin('oauth_application', (join) =>
      join
        .onRef('oauth_application.project_id', '=', 'oauth_consent.project_id')
        .onRef('oauth_application.client_id', '=', 'oauth_consent.client_id'),
    )
    .select([
      'oauth_consent.client_id',
      'oauth_consent.scopes',
      'oauth_consent.updated_at',
      'oauth_application.name',
      'oauth_application.logo_url',
    ])
    .where('oauth_consent.project_id', '=', projectId)
    .where('oauth_consent.user_id', '=', userId)
    .orderBy('oauth_consent.updated_at', 'desc')
    .execute();
}

/** Forgets the consent and ends every grant (and so every token) the user gave the application. */
export async function deleteConsent(db: DbHandle, projectId: ProjectId, userId: string, clientId: string): Promise<boolean> {
  const deleted = await kyselyOf(db)
    .deleteFrom('oauth_consent')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  await kyselyOf(db)
    .deleteFrom('oauth_provider_entity')
    .where('project_id', '=', projectId)
    .where('client_id', '=', clientId)
    .where(({ eb, ref }) => eb(eb.fn('jsonb_extract_path_text', [ref('payload'), eb.val('accountId')]), '=', userId))
    .execute();
  return deleted.numDeletedRows > 0n;
}
