import { OAuthInteractionNotFoundError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import type Provider from 'oidc-provider';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import { findApplication, findConsent, saveConsent } from './oauth-provider.repository.ts';
import type { ProviderRegistry } from './provider-registry.ts';
import { oidcScopes, scopeDescriptions } from './scopes.ts';

type Interaction = InstanceType<Provider['Interaction']>;

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

  async answer(project: Project, userId: string, interactionId: string, allow: boolean): Promise<{ redirect_to: string }> {
    const { provider, interaction } = await this.pending(project, interactionId);
    const clientId = String(interaction.params.client_id);
    if (!allow) {
      interaction.result = { error: 'access_denied', error_description: 'The user did not allow the request.' };
    } else {
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
    // Kept until it expires: the provider reads the result when the browser comes back to `returnTo`.
    await interaction.save(Math.max(1, interaction.exp - Math.floor(Date.now() / 1000)));
    return { redirect_to: interaction.returnTo };
  }

  private async pending(project: Project, interactionId: string) {
    const provider = await this.registry.providerFor(project);
    const interaction = await provider.Interaction.find(interactionId);
    // An answered request is not answered twice (its result would be replaced after the code was issued).
    if (!interaction || interaction.result) throw new OAuthInteractionNotFoundError();
    return { provider, interaction };
  }
}
