import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.ts';
import { securityOf } from './security.ts';
import { listOperations, operationParameters } from './spec-walk.ts';

const doc = await loadSpec(fileURLToPath(new URL('../../openapi/v1.yaml', import.meta.url)));
const operations = listOperations(doc);
const operation = (id: string) => {
  const found = operations.find((entry) => entry.operation.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found.operation;
};
const alternatives = (id: string) => (operation(id).security ?? []).map((requirement) => Object.keys(requirement).sort().join(' + '));

describe('security in the served document', () => {
  it('gives every operation a security naming only declared schemes, and no credential header parameters', () => {
    const schemes = new Set(Object.keys(doc.components.securitySchemes ?? {}));
    expect([...schemes].sort()).toEqual(
      [
        'AccessToken',
        'AccessType',
        'AdminAccessToken',
        'ProjectId',
        'PublishableClientKey',
        'RefreshToken',
        'ScimBearerToken',
        'SsoSetupSessionToken',
        'SecretServerKey',
        'SuperSecretAdminKey',
      ].sort(),
    );
    const credentialHeaders = new Set(Object.values(doc.components.securitySchemes ?? {}).map((scheme) => scheme.name?.toLowerCase()));
    for (const entry of operations) {
      expect(entry.operation.security, entry.operation.operationId).toBeDefined();
      for (const requirement of entry.operation.security ?? [])
        for (const name of Object.keys(requirement)) expect(schemes).toContain(name);
      for (const parameter of operationParameters(doc, entry)) {
        expect(parameter.name, entry.operation.operationId).not.toMatch(/^x-hexclave-/i);
        expect(credentialHeaders.has(parameter.name.toLowerCase()), `${entry.operation.operationId}: ${parameter.name}`).toBe(false);
      }
    }
  });

  it('says which keys and tokens each kind of operation accepts', () => {
    // Any key kind, user optional.
    expect(alternatives('getCurrentProject')).toEqual([
      'AccessType + ProjectId + PublishableClientKey',
      'AccessToken + AccessType + ProjectId + PublishableClientKey',
      'AccessType + ProjectId + SecretServerKey',
      'AccessToken + AccessType + ProjectId + SecretServerKey',
      'AccessType + ProjectId + SuperSecretAdminKey',
      'AccessToken + AccessType + ProjectId + SuperSecretAdminKey',
      'AccessType + AdminAccessToken + ProjectId',
      'AccessToken + AccessType + AdminAccessToken + ProjectId',
    ]);
    // A signed-in user required: every alternative carries the access token.
    expect(alternatives('deleteCurrentSession').every((requirement) => requirement.includes('AccessToken +'))).toBe(true);
    // Admin only.
    expect(alternatives('getProjectConfig')).toEqual([
      'AccessType + ProjectId + SuperSecretAdminKey',
      'AccessToken + AccessType + ProjectId + SuperSecretAdminKey',
      'AccessType + AdminAccessToken + ProjectId',
      'AccessToken + AccessType + AdminAccessToken + ProjectId',
    ]);
    // The session's own refresh token.
    expect(alternatives('refreshCurrentSession').every((requirement) => requirement.includes('RefreshToken'))).toBe(true);
    // No project authentication at all.
    expect(operation('getHealth').security).toEqual([]);
  });

  it('lets an x-auth: optional operation go without credentials', () => {
    expect(securityOf({ operationId: 'x', responses: {}, 'x-auth': 'optional', 'x-access-types': ['server'] })).toEqual([
      {},
      { ProjectId: [], AccessType: [], SecretServerKey: [] },
      { ProjectId: [], AccessType: [], SecretServerKey: [], AccessToken: [] },
    ]);
  });
});
