import { OAuthApplicationNotFoundError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { type DbHandle, inTransaction } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import { deleteConsent, listConsents } from './oauth-provider.repository.ts';
import { scopeDescriptions } from './scopes.ts';

/**
 * "Connected apps": the applications a user allowed on the consent page, as the user sees them in account settings.
 * Revoking one forgets the consent (the next request asks again) and ends the grant with its codes and tokens.
 */
export class OAuthConnectionsService {
  constructor(private readonly db: DbHandle) {}

  async list(project: Project, userId: string): Promise<Schema<'OAuthConnection'>[]> {
    const rows = await listConsents(this.db, project.id, userId);
    return rows.map((row) => ({
      client_id: row.client_id,
      application_name: row.name,
      logo_url: row.logo_url,
      scopes: (row.scopes as string[]).map((name) => ({ name, description: scopeDescriptions[name] ?? `Use ${name} on your behalf` })),
      granted_at_millis: new Date(row.updated_at).getTime(),
    }));
  }

  async revoke(project: Project, userId: string, clientId: string): Promise<void> {
    const revoked = await inTransaction(this.db, (tx) => deleteConsent(tx, project.id, userId, clientId));
    if (!revoked) throw new OAuthApplicationNotFoundError({ client_id: clientId });
  }
}
