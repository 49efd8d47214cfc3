import { createLocalJWKSet, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { expectError } from '@gatehouse/testing/expect-response';
import { testPublicUrl, tokenSubject, withTestContext } from '@gatehouse/testing/test-context';

const env = withTestContext();

describe('the .well-known aliases of the anonymous users issuer', () => {
  it('redirects any document of the anonymous issuer to the project’s own with include_anonymous=true', async () => {
    const id = env.project.project.id;
    for (const document of ['jwks.json', 'openid-configuration', 'oauth-authorization-server']) {
      const response = await env.context.request({ url: `/api/v1/projects-anonymous-users/${id}/.well-known/${document}` });
      expect(response.status).toBe(307);
      expect(response.headers.location).toBe(`/api/v1/projects/${id}/.well-known/${document}?include_anonymous=true`);
    }
    const bad = await env.context.request({ url: `/api/v1/projects-anonymous-users/${id}/.well-known/a%20b` });
    expectError(bad, 400, 'SCHEMA_ERROR');
  });

  it('discovers, from the anonymous issuer, the same keys as the JWKS route, which verify an anonymous token', async () => {
    const id = env.project.project.id;
    const token = await env.context.services.accessTokens.sign(tokenSubject(id, { is_anonymous: true }));
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
    expect(claims.iss).toBe(`${testPublicUrl}/api/v1/projects-anonymous-users/${id}`);
    // The verifier follows {iss}/.well-known/openid-configuration to the project's document.
    const alias = await env.context.request({ url: `${new URL(claims.iss).pathname}/.well-known/openid-configuration` });
    const discovery = await env.context.request({ url: String(alias.headers.location) });
    expect(discovery.status).toBe(200);
    expect(discovery.headers['cache-control']).toBe('public, max-age=3600');
    expect(discovery.body.issuer).toBe(claims.iss);
    const jwksUri = new URL(discovery.body.jwks_uri);
    const jwks = await env.context.request({ url: `${jwksUri.pathname}${jwksUri.search}` });
    const direct = await env.context.request({ url: `/api/v1/projects/${id}/.well-known/jwks.json?include_anonymous=true` });
    expect(jwks.body).toEqual(direct.body);
    const verified = await jwtVerify(token, createLocalJWKSet(jwks.body), { issuer: discovery.body.issuer, audience: `${id}:anon` });
    expect(verified.payload.sub).toBe(claims.sub);
  });

  it('describes the normal issuer without include_anonymous, and 404s an unknown project', async () => {
    const id = env.project.project.id;
    const response = await env.context.request({ url: `/api/v1/projects/${id}/.well-known/openid-configuration` });
    expect(response.body).toEqual({
      issuer: `${testPublicUrl}/api/v1/projects/${id}`,
      jwks_uri: `${testPublicUrl}/api/v1/projects/${id}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ['ES256'],
      subject_types_supported: ['public'],
      response_types_supported: ['code'],
    });
    expectError(await env.context.request({ url: '/api/v1/projects/nope/.well-known/openid-configuration' }), 404, 'PROJECT_NOT_FOUND');
    expectError(
      await env.context.request({ url: `/api/v1/projects/${id}/.well-known/openid-configuration?include_anonymous=maybe` }),
      400,
      'SCHEMA_ERROR',
    );
  });
});
