import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, createApplication, signedInUser } from '@gatehouse/testing/oauth-provider-testing';
import { createTestContext, type TestContext, type TestProject } from '@gatehouse/testing/test-context';
import { startMcpExample } from '../src/mcp-server.ts';

/**
 * MCP authorization end to end with the official SDK's client: it meets a 401 at the example server, reads the
 * protected resource metadata (RFC 9728), discovers the project's authorization server, registers itself (RFC 7591),
 * gets a code through the consent step for the server's resource (RFC 8707) and calls the tool. The browser's part
 * (following the redirects, the consent page's answer) is done over HTTP as the consent page does it.
 */
let platform: Server;
let baseUrl: string;
let context: TestContext;
let project: TestProject;
let mcp: Awaited<ReturnType<typeof startMcpExample>>;
let issuer: string;
const redirectUrl = 'http://127.0.0.1:33418/oauth/callback';

beforeAll(async () => {
  // The platform's public URL is its real address, so the SDK discovers endpoints it can reach.
  platform = createServer();
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  context = await createTestContext({ publicUrl: baseUrl });
  await context.app.ready();
  platform.on('request', (request, response) => context.app.server.emit('request', request, response));
  project = await context.createProject();
  issuer = `${baseUrl}/api/v1/projects/${project.project.id}/oauth`;
  const settings = await context.request({
    method: 'PATCH',
    url: '/api/v1/internal/oauth-provider/settings',
    headers: project.headers.admin,
    payload: { allow_dynamic_registration: true },
  });
  expect(settings.status, settings.text).toBe(200);
  mcp = await startMcpExample({ issuer });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await new Promise((resolve) => platform?.close(resolve));
  await context?.close();
});

/** What a person's browser does from the authorization URL: consent (as the signed-in user), then the redirect back. */
async function consentInBrowser(authorizationUrl: URL, userHeaders: Record<string, string>): Promise<URL> {
  const start = await fetch(authorizationUrl, { redirect: 'manual' });
  expect(start.status, await start.clone().text()).toBe(303);
  const cookies = start.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const consentPage = new URL(start.headers.get('location') as string);
  const interaction = consentPage.searchParams.get('interaction') as string;
  const answer = await fetch(`${baseUrl}/api/v1/oauth-provider/interactions/${interaction}`, {
    method: 'POST',
    headers: { ...userHeaders, 'content-type': 'application/json' },
    body: JSON.stringify({ allow: true }),
  });
  expect(answer.status, await answer.clone().text()).toBe(200);
  const resume = await fetch((await answer.json()).redirect_to, { redirect: 'manual', headers: { cookie: cookies } });
  expect(resume.status).toBe(303);
  return new URL(resume.headers.get('location') as string);
}

/** The SDK's OAuth client state, in memory; the "browser" answers the consent as the given user. */
function sdkAuthProvider(userHeaders: Record<string, string>) {
  const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; callback?: URL } = {};
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: {
      client_name: 'Example MCP client',
      redirect_uris: [redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => state.client,
    saveClientInformation: (client) => {
      state.client = client;
    },
    tokens: () => state.tokens,
    saveTokens: (tokens) => {
      state.tokens = tokens;
    },
    redirectToAuthorization: async (url) => {
      state.callback = await consentInBrowser(url, userHeaders);
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier as string,
  };
  return { provider, state };
}

const callMcp = (token?: string) =>
  fetch(mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

function expectResourceMetadataChallenge(response: Response) {
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain(`resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', mcp.url).href}"`);
}

describe('the example MCP server behind a Gatehouse project', () => {
  it('publishes its protected resource metadata and answers 401 with it to a call without a token', async () => {
    const metadata = await (await fetch(new URL('/.well-known/oauth-protected-resource/mcp', mcp.url))).json();
    expect(metadata).toMatchObject({ resource: mcp.url.href, authorization_servers: [issuer] });
    expectResourceMetadataChallenge(await callMcp());
    expectResourceMetadataChallenge(await callMcp('not-a-token'));
  });

  it('lets the SDK client discover, register, get a token through consent and call the tool', async () => {
    const { user, headers } = await signedInUser(context, project);
    const { provider, state } = sdkAuthProvider(headers);
    const client = new Client({ name: 'example-client', version: '1.0.0' });
    // The first attempt meets the 401, registers and sends the person to consent: the SDK then waits for the callback.
    await expect(client.connect(new StreamableHTTPClientTransport(mcp.url, { authProvider: provider }))).rejects.toThrow(/Unauthorized/);
    const callback = state.callback as URL;
    expect(callback.origin + callback.pathname).toBe(redirectUrl);
    const code = callback.searchParams.get('code');
    expect(code, callback.href).toBeTruthy();

    const registered = (
      await context.request({ method: 'GET', url: '/api/v1/internal/oauth-applications', headers: project.headers.admin })
    ).body.items.find((application: { client_id: string }) => application.client_id === state.client?.client_id);
    expect(registered).toMatchObject({ registered_dynamically: true, type: 'public', name: 'Example MCP client' });

    const transport = new StreamableHTTPClientTransport(mcp.url, { authProvider: provider });
    await transport.finishAuth(code as string);
    const accessToken = state.tokens?.access_token ?? '';
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ aud: mcp.url.href, iss: issuer, sub: user.id });
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining(`user ${user.id} via client ${state.client?.client_id}`) },
    ]);
    await client.close();
  });

  it('refuses a token of the same project issued for another resource, with the resource metadata challenge', async () => {
    const { headers } = await signedInUser(context, project);
    const { provider, state } = sdkAuthProvider(headers);
    // The SDK client, pointed at another MCP server's URL, gets a token for that resource instead.
    const other = await startMcpExample({ issuer });
    try {
      const client = new Client({ name: 'other-client', version: '1.0.0' });
      await expect(client.connect(new StreamableHTTPClientTransport(other.url, { authProvider: provider }))).rejects.toThrow(
        /Unauthorized/,
      );
      await new StreamableHTTPClientTransport(other.url, { authProvider: provider }).finishAuth(
        state.callback?.searchParams.get('code') as string,
      );
      const forOther = state.tokens?.access_token as string;
      expect(JSON.parse(Buffer.from(forOther.split('.')[1] as string, 'base64url').toString()).aud).toBe(other.url.href);
      expect((await callMcp(forOther)).status).toBe(401);
      expectResourceMetadataChallenge(await callMcp(forOther));
    } finally {
      await other.close();
    }
  });

  it('refuses a token for this very resource issued by another project, with the resource metadata challenge', async () => {
    // Project B's machine client asks B's authorization server for a token whose audience is this MCP server.
    const other = await context.createProject();
    const machine = await createApplication(context, other, {
      name: 'Other project worker',
      type: 'confidential',
      grant_types: ['client_credentials'],
    });
    const response = await fetch(`${baseUrl}/api/v1/projects/${other.project.id}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: basicAuth(machine.client_id, machine.client_secret as string),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: mcp.url.href }),
    });
    const issued = (await response.json()) as { access_token: string };
    expect(response.status, JSON.stringify(issued)).toBe(200);
    const claims = JSON.parse(Buffer.from(issued.access_token.split('.')[1] as string, 'base64url').toString());
    expect(claims).toMatchObject({ aud: mcp.url.href, iss: `${baseUrl}/api/v1/projects/${other.project.id}/oauth` });
    expectResourceMetadataChallenge(await callMcp(issued.access_token));
  });
});
