import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express from 'express';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

export type McpExampleOptions = {
  /** The Gatehouse project's issuer: `<platform>/api/v1/projects/<project id>/oauth`. */
  issuer: string;
  /** Where this server is reached (its `/mcp` endpoint is the protected resource, RFC 8707). */
  publicUrl?: string;
  port?: number;
  host?: string;
};

/**
 * Checks a bearer token as the MCP authorization spec asks a resource server to: an ES256 JWT of the project
 * (its JWKS), from its issuer, whose audience is this server's resource; any other token is `invalid_token`.
 */
function gatehouseVerifier(issuer: string, resource: URL) {
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      try {
        const { payload } = await jwtVerify(token, keys, { issuer, audience: resource.href, algorithms: ['ES256'] });
        return {
          token,
          clientId: String(payload.client_id ?? ''),
          scopes: String(payload.scope ?? '')
            .split(' ')
            .filter(Boolean),
          expiresAt: payload.exp,
          resource,
          extra: { userId: payload.sub },
        };
      } catch (error) {
        if (error instanceof errors.JOSEError) throw new InvalidTokenError('The access token is not valid for this server.');
        throw error;
      }
    },
  };
}

/** One MCP server per request (stateless streamable HTTP), with the tool a signed-in caller may use. */
function mcpServer(): McpServer {
  const server = new McpServer({ name: 'gatehouse-example', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { title: 'Who am I', description: 'Answers which Gatehouse user and client this token was issued to.' },
    async (extra) => {
      const auth = extra.authInfo;
      const text = `user ${String(auth?.extra?.userId)} via client ${auth?.clientId} (scopes: ${auth?.scopes.join(' ') || 'none'})`;
      return { content: [{ type: 'text', text }] };
    },
  );
  return server;
}

/** Starts the example: `/mcp` behind Gatehouse tokens, and its protected resource metadata (RFC 9728). */
export async function startMcpExample(options: McpExampleOptions): Promise<{ url: URL; close(): Promise<void> }> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  const http: Server = await new Promise((resolve) => {
    const listening = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(listening));
  });
  const port = (http.address() as AddressInfo).port;
  const base = (options.publicUrl ?? `http://${options.host ?? '127.0.0.1'}:${port}`).replace(/\/+$/, '');
  const resource = new URL(`${base}/mcp`);
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(resource);
  const metadata = {
    resource: resource.href,
    authorization_servers: [options.issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'Gatehouse example MCP server',
  };
  // RFC 9728 §3: at the resource's path under the well-known prefix (and at the root, for older clients).
  app.get(new URL(metadataUrl).pathname, (_request, response) => response.json(metadata));
  app.get('/.well-known/oauth-protected-resource', (_request, response) => response.json(metadata));

  const bearer = requireBearerAuth({
    verifier: gatehouseVerifier(options.issuer, resource),
    resourceMetadataUrl: metadataUrl,
    expectedResource: resource,
  });
  app.post('/mcp', bearer, async (request, response) => {
    const server = mcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, request.body);
  });
  // Stateless: no server-sent stream to resume and no session to end.
  app.all('/mcp', bearer, (_request, response) => {
    response
      .status(405)
      .set('allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  });

  return {
    url: resource,
    close: () => new Promise<void>((resolve, reject) => http.close((error) => (error ? reject(error) : resolve()))),
  };
}
