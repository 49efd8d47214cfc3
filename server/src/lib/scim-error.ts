/** SCIM's `scimType` detail codes (RFC 7644 §3.12, table 9). */
export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

/**
 * An error of a SCIM protocol operation, answered in SCIM's own shape (`application/scim+json`,
 * RFC 7644 §3.12) rather than the catalogue's envelope: SCIM clients (Okta, Entra ID) read that shape.
 */
export class ScimProtocolError extends Error {
  constructor(
    readonly status: 400 | 401 | 404 | 409,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }

  get body() {
    return {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: String(this.status),
      ...(this.scimType ? { scimType: this.scimType } : {}),
      detail: this.detail,
    };
  }
}
