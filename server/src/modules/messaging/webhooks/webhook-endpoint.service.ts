import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { WebhookEndpointNotFoundError, WebhookEndpointUrlNotAllowedError } from '@gatehouse/protocol/errors';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
  type WebhookEndpointValues,
} from './webhook-endpoint.repository.ts';
import type { WebhookEndpointRow } from './webhook-endpoint.table.ts';
import type { OutboundPolicy } from '../../../lib/outbound/address-policy.ts';
import type { HostResolver } from '../../../lib/outbound/outbound-target.ts';
import { postFailures, postWebhook, signedHeaders } from './webhook-sender.ts';
import { checkWebhookUrl } from './url-guard.ts';
import type { AtRestCipher } from '../../../lib/at-rest-cipher.ts';
import { openWebhookSecrets, sealWebhookSecret } from './webhook-secret-sealing.ts';

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64 (as Svix makes them). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The secrets that sign a message now: the current one, and the previous one during its grace period. */
export function signingSecretsOf(
  endpoint: Pick<WebhookEndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>,
  now = new Date(),
): string[] {
  const previous =
    endpoint.previous_secret && endpoint.previous_secret_expires_at && endpoint.previous_secret_expires_at > now
      ? [endpoint.previous_secret]
      : [];
  return [endpoint.secret, ...previous];
}

/** Whether an endpoint wants an event type (an empty list means every type). */
export const wantsEvent = (endpoint: Pick<WebhookEndpointRow, 'event_types'>, type: string): boolean =>
  endpoint.event_types.includes(type) || (endpoint.event_types.length === 0 && !optInEventTypes.has(type));

/**
 * Delivered only to endpoints that name them: the audit stream (an entry per sign-in, and more) would
 * multiply the traffic of receivers written for Stack's events, which subscribe to "every type".
 */
const optInEventTypes = new Set(['audit_log.entry_created']);

/** What the project's endpoints may reach: public addresses, and loopback when it allows localhost (tests, local development). */
export const outboundPolicyOf = (project: Project): OutboundPolicy => ({ allowLoopback: project.config.domains.allowLocalhost });

const portalTokenLifetimeMillis = 3_600_000;
const testTimeoutMillis = 10_000;

/** The admin side of webhooks: endpoints, their secrets, the portal token and the test message. */
export class WebhookEndpointService {
  private readonly portalKey: Buffer;

  constructor(
    private readonly db: DbHandle,
    serverSecret: Buffer,
    private readonly publicUrl: string,
    private readonly cipher: AtRestCipher,
    private readonly resolve?: HostResolver,
  ) {
    this.portalKey = createHmac('sha256', serverSecret).update('gatehouse webhook portal token').digest();
  }

  /** The project's endpoints as the API's reads show them: no read shows a secret, so none is opened (an AES-GCM open per secret). */
  async list(projectId: ProjectId): Promise<ShownWebhookEndpoint[]> {
    return (await listWebhookEndpoints(this.db, projectId)).map(withoutSecrets);
  }

  /** One endpoint as the API's reads show it (secrets left sealed, as in `list`). */
  async getShown(projectId: ProjectId, id: string): Promise<ShownWebhookEndpoint> {
    return withoutSecrets(await this.sealed(projectId, id));
  }

  async get(projectId: ProjectId, id: string): Promise<WebhookEndpointRow> {
    return openWebhookSecrets(this.cipher, await this.sealed(projectId, id));
  }

  /** The stored row, secrets still sealed; a missing endpoint is the catalogued 404. */
  private async sealed(projectId: ProjectId, id: string): Promise<WebhookEndpointRow> {
    const endpoint = await findWebhookEndpoint(this.db, projectId, id);
    if (!endpoint) throw new WebhookEndpointNotFoundError({ endpoint_id: id });
    return endpoint;
  }

  async create(project: Project, input: { url: string; description?: string; event_types?: string[]; enabled?: boolean }) {
    await this.assertUrlAllowed(project, input.url);
    const row = await insertWebhookEndpoint(
      this.db,
      project.id,
      randomUUID(),
      {
        url: input.url,
        description: input.description ?? '',
        eventTypes: [...new Set(input.event_types ?? [])],
        enabled: input.enabled ?? true,
      },
      sealWebhookSecret(this.cipher, newWebhookSecret()),
    );
    return openWebhookSecrets(this.cipher, row);
  }

  async update(project: Project, id: string, input: { url?: string; description?: string; event_types?: string[]; enabled?: boolean }) {
    await this.get(project.id, id);
    if (input.url !== undefined) await this.assertUrlAllowed(project, input.url);
    const values: Partial<WebhookEndpointValues> = {
      url: input.url,
      description: input.description,
      eventTypes: input.event_types ? [...new Set(input.event_types)] : undefined,
      enabled: input.enabled,
    };
    const updated = await updateWebhookEndpoint(this.db, project.id, id, values);
    if (!updated) throw new WebhookEndpointNotFoundError({ endpoint_id: id });
    return openWebhookSecrets(this.cipher, updated);
  }

  async delete(projectId: ProjectId, id: string): Promise<void> {
    if (!(await deleteWebhookEndpoint(this.db, projectId, id))) throw new WebhookEndpointNotFoundError({ endpoint_id: id });
  }

  /** A new secret now; the previous one keeps signing beside it for the grace period (none with 0). */
  async rotateSecret(projectId: ProjectId, id: string, gracePeriodSeconds = 86_400): Promise<WebhookEndpointRow> {
    const expiresAt = gracePeriodSeconds > 0 ? new Date(Date.now() + gracePeriodSeconds * 1000) : null;
    const rotated = await rotateWebhookEndpointSecret(
      this.db,
      projectId,
      id,
      sealWebhookSecret(this.cipher, newWebhookSecret()),
      expiresAt,
    );
    if (!rotated) throw new WebhookEndpointNotFoundError({ endpoint_id: id });
    return openWebhookSecrets(this.cipher, rotated);
  }

  /** A token (one hour) that authenticates as this project's admin key for the webhook operations only. */
  portalToken(projectId: ProjectId): { token: string; url: string } {
    const payload = Buffer.from(JSON.stringify({ p: projectId, e: Date.now() + portalTokenLifetimeMillis })).toString('base64url');
    const mac = createHmac('sha256', this.portalKey).update(payload).digest('base64url');
    return { token: `whpt_${payload}.${mac}`, url: `${this.publicUrl.replace(/\/$/, '')}/api/v1/internal/webhooks/endpoints` };
  }

  /** Whether a string is a portal token of this project that has not expired. */
  isPortalToken(projectId: string, token: string): boolean {
    const match = /^whpt_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!match?.[1] || !match[2]) return false;
    const expected = createHmac('sha256', this.portalKey).update(match[1]).digest();
    const given = Buffer.from(match[2], 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    try {
      const claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as { p?: unknown; e?: unknown };
      return claims.p === projectId && typeof claims.e === 'number' && claims.e > Date.now();
    } catch {
      return false;
    }
  }

  /** Posts a signed test message to one endpoint now and reports whether it was accepted (nothing is logged or retried). */
  async sendTest(project: Project, endpointId: string): Promise<{ success: boolean; error_message?: string }> {
    const found = /^[0-9a-f-]{36}$/i.test(endpointId)
      ? await findWebhookEndpoint(this.db, project.id, endpointId.toLowerCase())
      : undefined;
    const endpoint = found && openWebhookSecrets(this.cipher, found);
    if (!endpoint) return { success: false, error_message: `No webhook endpoint with id ${endpointId} in this project.` };
    const messageId = `msg_test_${randomUUID()}`;
    const body = JSON.stringify({ type: 'test', data: { message: 'This is a test webhook from Gatehouse.' } });
    const outcome = await postWebhook({
      url: endpoint.url,
      body,
      headers: signedHeaders(messageId, new Date(), body, signingSecretsOf(endpoint)),
      timeoutMillis: testTimeoutMillis,
      policy: outboundPolicyOf(project),
      resolve: this.resolve,
    });
    // One of postFailures' sentences: the status at most, never the receiver's body.
    return outcome.ok ? { success: true } : { success: false, error_message: outcome.error ?? postFailures.unreachable(testTimeoutMillis) };
  }

  private async assertUrlAllowed(project: Project, url: string): Promise<void> {
    const check = await checkWebhookUrl(url, outboundPolicyOf(project), this.resolve);
    if (!check.allowed)
      throw new WebhookEndpointUrlNotAllowedError({ url, reason: check.reason }, `The webhook URL is not allowed: ${check.reason}.`);
  }
}

/** An endpoint row without its (sealed) signing secrets. */
export type ShownWebhookEndpoint = Omit<WebhookEndpointRow, 'secret' | 'previous_secret'>;

function withoutSecrets(row: WebhookEndpointRow): ShownWebhookEndpoint {
  const { secret, previous_secret, ...shown } = row;
  return shown;
}

/** The admin view of an endpoint (the spec's `WebhookEndpoint`): never its secret, shown once (below). */
export function toWebhookEndpoint(row: ShownWebhookEndpoint, now = new Date()) {
  const graceActive = row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason === 'failing' ? ('failing' as const) : null,
    previous_secret_expires_at_millis: graceActive ? (row.previous_secret_expires_at as Date).getTime() : null,
    created_at_millis: row.created_at.getTime(),
    updated_at_millis: row.updated_at.getTime(),
  };
}

/** The answer that creates an endpoint or rotates its secret (`WebhookEndpointWithSecret`): the only one with the secret. */
export function toWebhookEndpointWithSecret(row: WebhookEndpointRow, now = new Date()) {
  return { ...toWebhookEndpoint(row, now), secret: row.secret };
}
