/**
 * The public URLs of a project's access tokens: the issuer they carry (the same shape the access-token
 * service writes) and where their keys are, for the `.well-known` documents.
 */
export class ProjectDiscovery {
  constructor(private readonly publicUrl: string) {}

  /** `iss` of normal users' tokens, or of anonymous users' ones. */
  issuer(projectId: string, anonymous: boolean): string {
    return new URL(
      `/api/v1/${anonymous ? 'projects-anonymous-users' : 'projects'}/${encodeURIComponent(projectId)}`,
      this.publicUrl,
    ).toString();
  }

  /** The JWKS listing the keys of those tokens (anonymous ones included when asked). */
  jwksUri(projectId: string, anonymous: boolean): string {
    const url = new URL(`/api/v1/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json`, this.publicUrl);
    if (anonymous) url.searchParams.set('include_anonymous', 'true');
    return url.toString();
  }

  /** The OpenID discovery fields a token verifier reads. */
  openIdConfiguration(projectId: string, anonymous: boolean) {
    return {
      issuer: this.issuer(projectId, anonymous),
      jwks_uri: this.jwksUri(projectId, anonymous),
      id_token_signing_alg_values_supported: ['ES256' as const],
      subject_types_supported: ['public' as const],
      response_types_supported: ['code'],
    };
  }
}
