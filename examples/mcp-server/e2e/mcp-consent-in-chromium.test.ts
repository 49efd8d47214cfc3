import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closePage, screenshots } from '../../demo/e2e/chromium.ts';
import { createPasswordUser, submitPasswordSignIn, withDemoInChromium } from '../../demo/e2e/e2e-environment.ts';
import { startMcpExample } from '../src/mcp-server.ts';

/**
 * The official MCP SDK client against the example MCP server, with a person in Chromium: the SDK meets the 401,
 * reads the protected resource metadata (RFC 9728), discovers the demo project's authorization server, registers
 * itself (RFC 7591) and hands the authorization URL to `redirectToAuthorization`, which opens it in Chromium. The
 * person signs in on the handler's page and allows on the consent page; the browser lands on the client's redirect
 * URL (a local server standing in for the client's loopback listener), and the SDK exchanges the code and calls the
 * tool. Every wait is a poll on what the person sees or on the callback's arrival.
 */
const env = withDemoInChromium();
const step = { timeout: 180_000 };
const wait = { timeout: 60_000 };
let callbackServer: { server: Server; url: string; arrived: URL[] };
let mcp: Awaited<ReturnType<typeof startMcpExample>>;

beforeAll(async () => {
  const arrived: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (url.pathname === '/oauth/callback') arrived.push(url);
    response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>MCP client authorized</h1>');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  callbackServer = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/callback`, arrived };
  const settings = await env.platform.context.request({
    method: 'PATCH',
    url: '/api/v1/internal/oauth-provider/settings',
    headers: env.platform.project.headers.admin,
    payload: { allow_dynamic_registration: true },
  });
  expect(settings.status, settings.text).toBe(200);
  mcp = await startMcpExample({ issuer: `${env.platform.url}/api/v1/projects/${env.platform.project.project.id}/oauth` });
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await new Promise<void>((done) => (callbackServer ? callbackServer.server.close(() => done()) : done()));
});

/** The SDK's client state in memory; its "browser" is a Chromium page opened at the authorization URL. */
function sdkAuthProvider() {
  const state: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; page?: Page; authorizationUrl?: URL } = {};
  const provider: OAuthClientProvider = {
    redirectUrl: callbackServer.url,
    clientMetadata: {
      client_name: 'MCP client in Chromium',
      redirect_uris: [callbackServer.url],
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
      state.authorizationUrl = url;
      const page = await env.browser.newPage();
      page.setDefaultTimeout(wait.timeout);
      state.page = page;
      // As the person's browser opens it: the wait is on what comes next, not on this document's load.
      await page.goto(url.href, { waitUntil: 'commit' });
    },
    saveCodeVerifier: (verifier) => {
      state.verifier = verifier;
    },
    codeVerifier: () => state.verifier as string,
  };
  return { provider, state };
}

describe('the MCP SDK client through the consent page, in Chromium', () => {
  const shot = screenshots('mcp-consent');

  it('discovers, registers, sends the person through sign-in and consent, exchanges the code and calls the tool', step, async () => {
    const person = await createPasswordUser(env.platform, 'mcp');
    const { provider, state } = sdkAuthProvider();
    const client = new Client({ name: 'example-client', version: '1.0.0' });
    // The first attempt meets the 401, registers and sends the person to the authorization URL; the SDK then waits.
    await expect(client.connect(new StreamableHTTPClientTransport(mcp.url, { authProvider: provider }))).rejects.toThrow(/Unauthorized/);
    const page = state.page as Page;
    try {
      expect(state.authorizationUrl?.searchParams.get('resource')).toBe(mcp.url.href);
      expect(state.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
      await expect.poll(() => new URL(page.url()).pathname, wait).toBe('/handler/sign-in');
      await submitPasswordSignIn(page, person);
      await expect.poll(() => page.getByRole('heading', { name: 'Authorize MCP client in Chromium' }).isVisible(), wait).toBe(true);
      await shot(page, 'consent');
      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => callbackServer.arrived.length, wait).toBe(1);
      await expect.poll(() => page.getByRole('heading', { name: 'MCP client authorized' }).isVisible(), wait).toBe(true);
    } finally {
      await closePage(page);
    }

    const callback = callbackServer.arrived[0] as URL;
    const code = callback.searchParams.get('code');
    expect(code, callback.href).toBeTruthy();
    const transport = new StreamableHTTPClientTransport(mcp.url, { authProvider: provider });
    await transport.finishAuth(code as string);
    const accessToken = state.tokens?.access_token ?? '';
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString());
    expect(claims).toMatchObject({ aud: mcp.url.href, client_id: state.client?.client_id });
    await client.connect(transport);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: expect.stringContaining(`user ${claims.sub} via client ${state.client?.client_id}`) },
    ]);
    await client.close();

    const registered = (
      await env.platform.context.request({
        method: 'GET',
        url: '/api/v1/internal/oauth-applications',
        headers: env.platform.project.headers.admin,
      })
    ).body.items.find((application: { client_id: string }) => application.client_id === state.client?.client_id);
    expect(registered).toMatchObject({ registered_dynamically: true, type: 'public', name: 'MCP client in Chromium' });
  });
});
