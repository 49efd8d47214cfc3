import { LRUCache } from 'lru-cache';
import type Provider from 'oidc-provider';
import type { Project } from '../../../tenancy/project.ts';
import { findSettings, listApplications } from './oauth-provider.repository.ts';
import { createProvider, type CustomClaimsTemplate, type ProviderNeeds } from './provider-factory.ts';
import { providerKeys } from './signing-keys.ts';

/**
 * One oidc-provider per project, built on first use and kept for a minute (settings and key changes made on another
 * instance are seen within that time; this instance forgets its copy at once).
 */
export class ProviderRegistry {
  private readonly cache = new LRUCache<string, Promise<Provider>>({ max: 500, ttl: 60_000 });

  constructor(
    private readonly needs: ProviderNeeds,
    private readonly publicUrl: string,
  ) {}

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

  forget(projectId: string): void {
    this.cache.delete(projectId);
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
