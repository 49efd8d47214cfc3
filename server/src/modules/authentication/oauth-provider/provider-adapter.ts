import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { DbHandle } from '../../../db/handle.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { findApplication, insertApplication, type OAuthApplicationRow } from './oauth-provider.repository.ts';
import { consumeEntity, destroyEntity, findEntity, revokeGrant, revokeGrantOfEntity, upsertEntity } from './provider-store.repository.ts';

export const secretPlace = (projectId: ProjectId, clientId: string) => `oauth_application:${projectId}:${clientId}`;

/** An application row as the client metadata oidc-provider reads (RFC 7591 names). */
export function clientMetadataOf(row: OAuthApplicationRow, cipher: AtRestCipher): AdapterPayload {
  const grantTypes = row.grant_types as string[];
  const codeFlow = grantTypes.includes('authorization_code');
  return {
    client_id: row.client_id,
    ...(row.client_secret ? { client_secret: cipher.open(row.client_secret, secretPlace(row.project_id, row.client_id)) } : {}),
    client_name: row.name,
    ...(row.logo_url ? { logo_uri: row.logo_url } : {}),
    redirect_uris: row.redirect_uris as string[],
    grant_types: grantTypes,
    response_types: codeFlow ? ['code'] : [],
    token_endpoint_auth_method: row.type === 'public' ? 'none' : 'client_secret_basic',
    scope: (row.scopes as string[]).join(' '),
  };
}

/**
 * oidc-provider's storage for one project: clients are the project's applications (`oauth_application`), every
 * other model (codes, tokens, grants, interactions, sessions) one row of `oauth_provider_entity`.
 */
export function adapterFactory(db: DbHandle, projectId: ProjectId, cipher: AtRestCipher) {
  return (model: string): Adapter => {
    if (model === 'Client') return clientAdapter(db, projectId, cipher);
    return {
      upsert: (id, payload, expiresIn) => upsertEntity(db, projectId, model, id, payload as Record<string, unknown>, expiresIn),
      find: async (id) => entityPayload(await findEntity(db, projectId, model, { id })),
      findByUid: async (uid) => entityPayload(await findEntity(db, projectId, model, { uid })),
      // Device flow is not enabled: no user codes are ever stored.
      findByUserCode: async () => undefined,
      // oidc-provider reads a code (or refresh token), sees it unused, then consumes it: two exchanges racing both
      // pass the read, so the one whose mark finds it already used is a second use. oidc-provider answers a second
      // use it sees at the read by revoking the grant (RFC 6749 §4.1.2, OAuth 2.0 Security BCP: a replayed code or
      // rotated refresh token revokes what it issued); a second use caught here gets the same answer, so the
      // outcome of a replay does not depend on which side of the read the attacker's request lands.
      consume: async (id) => {
        if (await consumeEntity(db, projectId, model, id)) return;
        await revokeGrantOfEntity(db, projectId, model, id);
        throw new errors.InvalidGrant(`${model} already used`);
      },
      destroy: (id) => destroyEntity(db, projectId, model, id),
      revokeByGrantId: (grantId) => revokeGrant(db, projectId, grantId),
    };
  };
}

function entityPayload(entity: { payload: Record<string, unknown>; consumed: boolean } | undefined): AdapterPayload | undefined {
  if (!entity) return undefined;
  return { ...(entity.payload as AdapterPayload), ...(entity.consumed ? { consumed: true } : {}) };
}

function clientAdapter(db: DbHandle, projectId: ProjectId, cipher: AtRestCipher): Adapter {
  return {
    find: async (clientId) => {
      const row = await findApplication(db, projectId, clientId);
      return row ? clientMetadataOf(row, cipher) : undefined;
    },
    // Dynamic client registration (RFC 7591) saves its client here: it becomes an application of the project.
    upsert: async (clientId, metadata) => {
      const isPublic = metadata.token_endpoint_auth_method === 'none';
      const secret = typeof metadata.client_secret === 'string' && !isPublic ? metadata.client_secret : null;
      await insertApplication(db, projectId, {
        client_id: clientId,
        client_secret: secret ? cipher.seal(secret, secretPlace(projectId, clientId)) : null,
        name: typeof metadata.client_name === 'string' ? metadata.client_name : 'Dynamically registered client',
        type: isPublic ? 'public' : 'confidential',
        redirect_uris: (metadata.redirect_uris as string[] | undefined) ?? [],
        grant_types: (metadata.grant_types as string[] | undefined) ?? ['authorization_code'],
        scopes: typeof metadata.scope === 'string' ? metadata.scope.split(' ').filter(Boolean) : [],
        logo_url: typeof metadata.logo_uri === 'string' ? metadata.logo_uri : null,
        registered_dynamically: true,
      });
    },
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: async () => undefined,
    destroy: async () => undefined,
    revokeByGrantId: async () => undefined,
  };
}
