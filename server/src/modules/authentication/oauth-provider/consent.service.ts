import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { OAuthInteractionNotFoundError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import type Provider from 'oidc-provider';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import { findApplication, findConsent, saveConsent } from './oauth-provider.repository.ts';
import type { ProviderRegistry } from './provider-registry.ts';
import { oidcScopes, scopeDescriptions } from './scopes.ts';

type Interaction = InstanceType<Provider['Interaction']>;

/**
 * A consent answered on the consent page but not yet applied: it is applied only when the browser that started the
 * request (the provider's resume cookie) comes back with the answer's one-time token (which only the browser that
 * answered has). A consent URL opened by someone else is therefore answered in vain: nothing is granted.
 */
type PendingAnswer = { user_id: string; allow: boolean; token_hash: string };
const pendingKey = 'gatehouse_pending_answer';
const pendingAnswerOf = (interaction: Interaction): PendingAnswer | undefined =>
  (interaction.result as Record<string, PendingAnswer> | undefined)?.[pendingKey];
const hashOf = (token: string) => createHash('sha256').update(token).digest();

const scopesOf = (interaction: Interaction): string[] =>
  String(interaction.params.scope ?? '')
    .split(' ')
    .filter(Boolean);
const resourcesOf = (interaction: Interaction): string[] => {
  const resource = interaction.params.resource;
  return Array.isArray(resource) ? resource.map(String) : typeof resource === 'string' ? [resource] : [];
};

/**
 * The consent step of the project's provider, answered by the handler's consent page with the user signed in to
 * the project: it reads a pending request and signs it in as that user, with the scopes allowed.
 */
export class OAuthConsentService {
  constructor(
    private readonly db: DbHandle,
    private readonly registry: ProviderRegistry,
  ) {}

  async describe(project: Project, userId: string, interactionId: string): Promise<Schema<'OAuthConsentRequest'>> {
    const { interaction } = await this.pending(project, interactionId);
    const clientId = String(interaction.params.client_id);
    const application = await findApplication(this.db, project.id, clientId);
    if (!application) throw new OAuthInteractionNotFoundError();
    const requested = scopesOf(interaction);
    const remembered = await findConsent(this.db, project.id, userId, clientId);
    return {
      client_id: clientId,
      application_name: application.name,
      logo_url: application.logo_url,
      scopes: requested.map((name) => ({ name, description: scopeDescriptions[name] ?? `Use ${name} on your behalf` })),
      remembered: remembered !== undefined && requested.every((scope) => remembered.includes(scope)),
    };
  }

  /**
   * Records the user's answer and sends the browser back to the provider with a one-time token; the answer takes
   * effect in `applyAnswer` when that browser is also the one that started the request.
   */
  async answer(project: Project, userId: string, interactionId: string, allow: boolean): Promise<{ redirect_to: string }> {
    const { interaction } = await this.pending(project, interactionId);
    const token = randomBytes(32).toString('base64url');
    const answer: PendingAnswer = { user_id: userId, allow, token_hash: hashOf(token).toString('base64url') };
    interaction.result = { [pendingKey]: answer };
    await this.keep(interaction);
    const next = new URL(interaction.returnTo);
    next.searchParams.set('answer', token);
    return { redirect_to: next.href };
  }

  /**
   * At the provider's return URL, before the provider reads the result: a pending answer is applied only for the
   * browser holding the request's resume cookie (`startedHere`) and the answer's token; any other browser is refused
   * and nothing is granted.
   */
  async applyAnswer(project: Project, interactionId: string, browser: { startedHere: boolean; answerToken: string | null }) {
    const provider = await this.registry.providerFor(project);
    const interaction = await provider.Interaction.find(interactionId);
    const answer = interaction && pendingAnswerOf(interaction);
    if (!interaction || !answer) return;
    const expected = Buffer.from(answer.token_hash, 'base64url');
    const tokenMatches = browser.answerToken !== null && timingSafeEqual(hashOf(browser.answerToken), expected);
    if (!browser.startedHere || !tokenMatches) throw new OAuthInteractionNotFoundError();
    const clientId = String(interaction.params.client_id);
    if (!answer.allow) {
      interaction.result = { error: 'access_denied', error_description: 'The user did not allow the request.' };
    } else {
      const userId = answer.user_id;
      const requested = scopesOf(interaction);
      const grant = new provider.Grant({ accountId: userId, clientId });
      // Every requested scope is granted at the provider level too: the project's API scopes are in the provider's
      // scope list (so clients may register them), and a scope there that the grant lacks sends the browser back to
      // consent. Tokens for a resource (RFC 8707) carry only that resource's scopes, granted below.
      if (requested.length > 0) grant.addOIDCScope(requested.join(' '));
      const apiScopes = requested.filter((scope) => !oidcScopes.includes(scope)).join(' ');
      for (const resource of resourcesOf(interaction)) grant.addResourceScope(resource, apiScopes);
      const grantId = await grant.save();
      interaction.result = { login: { accountId: userId }, consent: { grantId } };
      const remembered = (await findConsent(this.db, project.id, userId, clientId)) ?? [];
      await saveConsent(this.db, project.id, userId, clientId, [...new Set([...remembered, ...requested])]);
    }
    await this.keep(interaction);
  }

  /** Kept until it expires: the provider reads the result when the browser comes back to `returnTo`. */
  private keep(interaction: Interaction) {
    return interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
  }

  private async pending(project: Project, interactionId: string) {
    const provider = await this.registry.providerFor(project);
    const interaction = await provider.Interaction.find(interactionId);
    // An answered request is not answered twice (its result would be replaced after the code was issued).
    if (!interaction || interaction.result) throw new OAuthInteractionNotFoundError();
    return { provider, interaction };
  }
}
