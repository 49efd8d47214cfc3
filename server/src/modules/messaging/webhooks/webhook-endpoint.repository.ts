import { type DbHandle, kyselyOf } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import type { WebhookEndpointRow } from './webhook-endpoint.table.ts';

export type WebhookEndpointValues = {
  url: string;
  description: string;
  eventTypes: string[];
  enabled: boolean;
};

export async function insertWebhookEndpoint(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  values: WebhookEndpointValues,
  secret: string,
): Promise<WebhookEndpointRow> {
  return kyselyOf(db)
    .insertInto('webhook_endpoint')
    .values({
      id,
      project_id: projectId,
      url: values.url,
      description: values.description,
      event_types: JSON.stringify(values.eventTypes),
      enabled: values.enabled,
      secret,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listWebhookEndpoints(db: DbHandle, projectId: ProjectId): Promise<WebhookEndpointRow[]> {
  return kyselyOf(db)
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function findWebhookEndpoint(db: DbHandle, projectId: ProjectId, id: string): Promise<WebhookEndpointRow | undefined> {
  return kyselyOf(db)
    .selectFrom('webhook_endpoint')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function updateWebhookEndpoint(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  values: Partial<WebhookEndpointValues>,
): Promise<WebhookEndpointRow | undefined> {
  return kyselyOf(db)
    .updateTable('webhook_endpoint')
    .set({
      ...(values.url !== undefined ? { url: values.url } : {}),
      ...(values.description !== undefined ? { description: values.description } : {}),
      ...(values.eventTypes !== undefined ? { event_types: JSON.stringify(values.eventTypes) } : {}),
      // Turning an endpoint on again forgets why it was off and its failing streak.
      ...(values.enabled !== undefined ? { enabled: values.enabled, disabled_reason: null, failing_since: null } : {}),
      updated_at: new Date(),
    })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function rotateWebhookEndpointSecret(
  db: DbHandle,
  projectId: ProjectId,
  id: string,
  secret: string,
  previousExpiresAt: Date | null,
): Promise<WebhookEndpointRow | undefined> {
  return kyselyOf(db)
    .updateTable('webhook_endpoint')
    .set((eb) => ({
      previous_secret: previousExpiresAt ? eb.ref('secret') : null,
      previous_secret_expires_at: previousExpiresAt,
      secret,
      updated_at: new Date(),
    }))
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteWebhookEndpoint(db: DbHandle, projectId: ProjectId, id: string): Promise<boolean> {
  const result = await kyselyOf(db)
    .deleteFrom('webhook_endpoint')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

type StoredSecrets = { id: string; secret: string; previous_secret: string | null };

/** Every endpoint's stored secrets, in every project (the sealing job looks at each; endpoints are few). */
export function listWebhookSecretsAcrossProjects(db: DbHandle): Promise<StoredSecrets[]> {
  return kyselyOf(db).selectFrom('webhook_endpoint').select(['id', 'secret', 'previous_secret']).execute();
}

/** Replaces an endpoint's stored secrets, only if its secret is unchanged meanwhile (a rotation in between wins). */
export async function replaceWebhookSecretsAcrossProjects(
  db: DbHandle,
  before: StoredSecrets,
  sealed: Omit<StoredSecrets, 'id'>,
): Promise<void> {
  await kyselyOf(db).updateTable('webhook_endpoint').set(sealed).where('id', '=', before.id).where('secret', '=', before.secret).execute();
}
