import { LRUCache } from 'lru-cache';
import type Provider from 'oidc-provider';
import type { Project } from '../../../tenancy/project.ts';
import { type CacheInvalidationService, oauthProvidersTopic, projectTopic } from '../../platform/cache-invalidation/index.ts';
import { findSettings, listApplications } from './oauth-provider.repository.ts';
import { createProvider, type CustomClaimsTemplate, type ProviderNeeds } from './provider-factory.ts';
import { providerKeys } from './signing-keys.ts';

/**
 * One oidc-provider per project, built on first use. A change to what it is built from (applications and their
 * scopes, settings such as dynamic registration, signing keys, the project's domains) drops it on every instance at
 * once through cache invalidation; the minute-long lifetime is only a safety net.
 */
export class ProviderRegistry {
  private readonly cache = new LRUCache<string, Promise<Provider>>({ max: 500, ttl: 60_000 });

  constructor(
    private readonly needs: ProviderNeeds,
    private readonly publicUrl: string,
    private readonly invalidation: CacheInvalidationService,
  ) {
    const drop = (projectId: string | undefined) => (projectId === undefined ? this.cache.clear() : this.cache.delete(projectId));
    invalidation.on(oauthProvidersTopic, drop);
    // The consent page's default address comes from the project's trusted domains.
    invalidation.on(projectTopic, drop);
  }

  issuerOf(projectId: string): string {
    return `${this.publicUrl}/api/v1/projects/${projectId}/oauth`;
  }

  async consentPageUrl(project: Project): Promise<string> {
    const settings = await findSettings(this.needs.db, project.id);
    if (settings.consent_page_url) return settings.consent_page_url;
    const domains = Object.entries(project.config.domains.trustedDomains).sort(([a], [b]) => a.localeCompare(b));
    const first = domains[0]?.[1];
    if (first) return `${first.baseUrl.replace(/\/+$/, '')}${first.handlerPath.replace(/\/+$/, '')}/oauth-consent`;
    return `${this.publicUrl}/handler/oauth-consent`;
  }

  async allowsDynamicRegistration(project: Project): Promise<boolean> {
    return (await findSettings(this.needs.db, project.id)).allow_dynamic_registration;
  }

  providerFor(project: Project): Promise<Provider> {
    let provider = this.cache.get(project.id);
    if (!provider) {
      provider = this.build(project);
      this.cache.set(project.id, provider);
      provider.catch(() => this.cache.delete(project.id));
    }
    return provider;
  }

  /** The project's provider changed: rebuilt on next use, here at once and on the other instances within a second. */
  changed(projectId: string): Promise<void> {
    return this.invalidation.publish(oauthProvidersTopic, projectId);
  }

  private async build(project: Project): Promise<Provider> {
    const [settings, applications, keys, consentPageUrl] = await Promise.all([
      findSettings(this.needs.db, project.id),
      listApplications(this.needs.db, project.id),
      providerKeys(this.needs.db, this.needs.cipher, project.id),
      this.consentPageUrl(project),
    ]);
    return createProvider(
      project,
      {
        issuer: this.issuerOf(project.id),
        consentPageUrl,
        allowDynamicRegistration: settings.allow_dynamic_registration,
        keys,
        apiScopes: applications.flatMap((application) => application.scopes as string[]),
        customClaims: new Map(
          applications
            .filter((application) => Object.keys(application.custom_claims ?? {}).length > 0)
            .map((application) => [application.client_id, application.custom_claims as CustomClaimsTemplate]),
        ),
      },
      this.needs,
    );
  }
}
