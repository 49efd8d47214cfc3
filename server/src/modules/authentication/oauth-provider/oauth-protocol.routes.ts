import type { IncomingMessage } from 'node:http';
import { OAuthDynamicRegistrationDisabledError, ProjectNotFoundError } from '@gatehouse/protocol/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { setSecurityHeaders } from '../../../plugins/response-headers.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { OAuthConsentService } from './consent.service.ts';
import type { ProviderRegistry } from './provider-registry.ts';

type ProjectLookup = { find(id: string): Promise<Project | undefined> };

/**
 * Hands a protocol request to the project's oidc-provider: the route (from the spec) has checked the path and read
 * the form; the provider answers on the raw response, with the platform's headers (request id, CORS...) on it.
 */
async function delegate(
  registry: ProviderRegistry,
  projects: ProjectLookup,
  request: FastifyRequest,
  reply: FastifyReply,
  precondition?: (project: Project) => Promise<void>,
) {
  const projectId = (request.params as { project_id: string }).project_id;
  const project = await projects.find(projectId);
  if (!project) throw new ProjectNotFoundError({ project_id: projectId });
  await precondition?.(project);
  const provider = await registry.providerFor(project);
  const raw = request.raw as IncomingMessage & { originalUrl?: string; body?: unknown };
  const url = raw.url ?? '';
  // The provider computes its own URLs from the mount (originalUrl minus url) and reads an already parsed form.
  raw.originalUrl = url;
  raw.url = url.slice(url.indexOf('/oauth') + '/oauth'.length) || '/';
  if (request.body !== undefined) raw.body = request.body;
  // What the onSend hook gives every other answer (a hijacked reply skips the hooks).
  setSecurityHeaders(reply);
  reply.header('x-stack-request-id', request.id).header('x-hexclave-request-id', request.id).header('cache-control', 'no-store, max-age=0');
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
  await handlerOf(provider)(raw, reply.raw);
  return reply;
}

type ProviderHandler = ReturnType<Provider['callback']>;
const handlers = new WeakMap<Provider, ProviderHandler>();

/** The provider's request handler, made once per provider: Koa's `callback()` composes the middleware each time it is called. */
function handlerOf(provider: Provider): ProviderHandler {
  let handler = handlers.get(provider);
  if (!handler) {
    handler = provider.callback();
    handlers.set(provider, handler);
  }
  return handler;
}

export function oauthProtocolHandlers(services: {
  oauthProviders: ProviderRegistry;
  oauthConsent: OAuthConsentService;
  projects: ProjectLookup;
}) {
  const handle = (request: FastifyRequest, reply: FastifyReply) => delegate(services.oauthProviders, services.projects, request, reply);
  return {
    getOAuthProviderOpenIdConfiguration: handle,
    getOAuthAuthorizationServerMetadata: async (request, reply) => {
      // Same document as the OpenID one (RFC 8414 §3 allows either name).
      request.raw.url = request.raw.url?.replace('/.well-known/oauth-authorization-server', '/.well-known/openid-configuration');
      return handle(request, reply);
    },
    getOAuthProviderJwks: handle,
    redirectToOAuthConsent: async (request, reply) => {
      // An authorization request naming no scope (MCP clients send none when the resource advertises none) asks for
      // `openid`, the user's identity: oidc-provider would otherwise deny it for want of any scope to grant.
      const url = new URL(request.raw.url ?? '', 'http://gatehouse.invalid');
      if (!url.searchParams.get('scope')) {
        url.searchParams.set('scope', 'openid');
        request.raw.url = `${url.pathname}${url.search}`;
      }
      return handle(request, reply);
    },
    // The consent page's answer takes effect only here, in the browser that started the request (its resume cookie,
    // signed by the provider) and that answered (the answer's token): a leaked consent URL grants nothing.
    redirectFromOAuthConsent: (request, reply) =>
      delegate(services.oauthProviders, services.projects, request, reply, async (project) => {
        const provider = await services.oauthProviders.providerFor(project);
        const cookies = provider.createContext(request.raw, reply.raw).cookies;
        const interactionId = request.params.interaction_id;
        const startedHere = cookies.get(provider.cookieName('resume'), { signed: true }) === interactionId;
        const answerToken = new URL(request.raw.url ?? '', 'http://gatehouse.invalid').searchParams.get('answer');
        await services.oauthConsent.applyAnswer(project, interactionId, { startedHere, answerToken });
      }),
    exchangeOAuthProviderToken: handle,
    getOAuthUserInfo: handle,
    revokeOAuthProviderToken: handle,
    checkOAuthProviderToken: handle,
    // Checked here rather than left to the provider, whose own answer (a 404 in its format) is no catalogue entry.
    registerOAuthClient: (request, reply) =>
      delegate(services.oauthProviders, services.projects, request, reply, async (project) => {
        if (!(await services.oauthProviders.allowsDynamicRegistration(project))) throw new OAuthDynamicRegistrationDisabledError();
      }),
  } satisfies Partial<OperationHandlers>;
}
