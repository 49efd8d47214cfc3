import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { routeTable } from '../../server/src/generated/route-table.ts';
import type { RouteDefinition } from '../../server/src/routing/route-definition.ts';
import { loadSpec } from './load-spec.ts';
import { collectErrorCodes, deref, listOperations } from './spec-walk.ts';

const specPath = fileURLToPath(new URL('../../openapi/v1.yaml', import.meta.url));
const configPath = fileURLToPath(new URL('../../openapi/redocly.yaml', import.meta.url));
const doc = await loadSpec(specPath);
const operations = listOperations(doc);

describe('openapi/v1.yaml', () => {
  it('passes the redocly lint rules of openapi/redocly.yaml with no error', async () => {
    const config = await createConfig(undefined, { configPath });
    const problems = await lint({ ref: specPath, config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((problem) => `${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).toEqual([]);
  });

  it('gives every operation a unique verb+noun operationId and a 2xx or 3xx answer', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { operation } of operations) {
      expect(operation.operationId).toMatch(
        /^(get|list|create|update|delete|check|redirect|send|sign|verify|revoke|refresh|set|reset|exchange|accept|transfer|poll|complete|initiate|register|grant|cancel|switch|render|receive)[A-Z]\w+$/,
      );
      expect(
        Object.keys(operation.responses).some((status) => /^[23]\d\d$/.test(status)),
        operation.operationId,
      ).toBe(true);
    }
  });

  it('answers every JSON 4xx of every operation with catalogued errors only', () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^4\d\d$/.test(status)) continue;
        const schema = deref(doc, response).content?.['application/json']?.schema;
        // Plain-text answers (429, the protocol's text errors) carry no catalogued code.
        if (!schema) continue;
        // The OAuth provider's protocol errors are RFC 6749's (`error`, `error_description`), not the catalogue's.
        if (JSON.stringify(schema) === JSON.stringify({ $ref: '#/components/schemas/OAuthProtocolError' })) continue;
        const codes = collectErrorCodes(doc, schema);
        expect(codes.size, `${operation.operationId} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          const entry = Object.values(doc.components.schemas).find((candidate) => candidate['x-error-code'] === code);
          expect(entry?.['x-error-status'], `${operation.operationId} declares ${code} under ${status}`).toBe(Number(status));
        }
      }
    }
  });

  it('declares the header errors on every operation that reads project authentication', () => {
    const headerErrors = [
      'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
      'INVALID_ACCESS_TYPE',
      'ACCESS_TYPE_WITHOUT_PROJECT_ID',
      'CURRENT_PROJECT_NOT_FOUND',
      'UNPARSABLE_ACCESS_TOKEN',
      'ACCESS_TOKEN_EXPIRED',
    ];
    for (const route of routeTable) {
      if (route.auth === 'none') continue;
      const declared = Object.values(route.errorCodes).flat() as string[];
      for (const code of headerErrors) expect(declared, `${route.operationId} must declare ${code}`).toContain(code);
      if (route.auth === 'required') expect(declared).toContain('ACCESS_TYPE_REQUIRED');
      if (route.accessTypes.length < 3 && route.auth === 'required') expect(declared).toContain('INSUFFICIENT_ACCESS_TYPE');
    }
  });

  it("declares the deleted admin user's plain-text 401 wherever an admin access token is read", () => {
    for (const { operation } of operations) {
      const response = operation.responses['401'];
      const content = response ? deref(doc, response).content : undefined;
      const schema = content?.['application/json']?.schema;
      if (!schema || !collectErrorCodes(doc, schema).has('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN')) continue;
      expect(content?.['text/plain']?.schema, operation.operationId).toEqual({ $ref: '#/components/schemas/DeletedAdminUserText' });
    }
  });

  it('declares BODY_PARSING_ERROR on every operation whose method carries a body (the SDKs send {} on DELETE)', () => {
    for (const route of routeTable as readonly RouteDefinition[]) {
      if (route.method === 'GET') continue;
      // SCIM operations answer an unreadable body in SCIM's own error shape (application/scim+json), not the catalogue's.
      if (route.specPath.startsWith('/scim/')) continue;
      expect(Object.values(route.errorCodes).flat(), route.operationId).toContain('BODY_PARSING_ERROR');
    }
  });

  it('rejects unknown fields: every request body object is closed unless it documents why', () => {
    for (const route of routeTable as readonly RouteDefinition[]) {
      const body = route.schema.body as { type?: string; additionalProperties?: unknown } | undefined;
      if (body?.type !== 'object') continue;
      // SCIM resources are open: identity providers send extension attributes, which the service keeps as given.
      // The OAuth provider's forms: RFC 6749 §3.1 and §3.2 say unknown parameters are ignored; RFC 7591 §2 says the
      // same of client metadata the server does not understand (dynamic registration).
      const openForms = ['exchangeOAuthProviderToken', 'revokeOAuthProviderToken', 'checkOAuthProviderToken', 'registerOAuthClient'];
      if (body.additionalProperties !== false && !route.specPath.startsWith('/scim/'))
        expect(['checkFeatureSupport', 'receiveStripeWebhook', ...openForms]).toContain(route.operationId);
    }
  });
});
