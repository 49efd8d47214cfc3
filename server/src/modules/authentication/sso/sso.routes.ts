import { authOf } from '../../../request-context/auth-of.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { redirect, stringsOf } from '../../../routing/redirect-replies.ts';
import type { SsoConnectionService } from './sso-connection.service.ts';
import type { SsoSignInService } from './sso-sign-in.service.ts';
import { type TeamDomainService, toTeamDomainView } from './team-domain.service.ts';

export function ssoHandlers(services: {
  ssoConnections: SsoConnectionService;
  ssoSignIn: SsoSignInService;
  teamDomains: TeamDomainService;
}) {
  const { ssoConnections, ssoSignIn, teamDomains } = services;
  return {
    listSsoConnections: async (request) => ({
      items: (await ssoConnections.list(authOf(request).project.id, request.query.team_id)).map((row) => ssoConnections.toView(row)),
    }),
    createSsoConnection: async (request, reply) => {
      const row = await ssoConnections.create(authOf(request).project, request.body);
      reply.status(201);
      return ssoConnections.toView(row);
    },
    getSsoConnection: async (request) =>
      ssoConnections.toView(await ssoConnections.get(authOf(request).project.id, request.params.connection_id)),
    updateSsoConnection: async (request) =>
      ssoConnections.toView(await ssoConnections.update(authOf(request).project, request.params.connection_id, request.body)),
    deleteSsoConnection: async (request) => {
      await ssoConnections.delete(authOf(request).project.id, request.params.connection_id);
      return { success: true } as const;
    },

    listTeamDomains: async (request) => ({
      items: (await teamDomains.list(authOf(request).project.id, request.query.team_id)).map(toTeamDomainView),
    }),
    createTeamDomain: async (request, reply) => {
      const row = await teamDomains.create(authOf(request).project, request.body);
      reply.status(201);
      return toTeamDomainView(row);
    },
    updateTeamDomain: async (request) =>
      toTeamDomainView(await teamDomains.update(authOf(request).project.id, request.params.domain_id, request.body)),
    deleteTeamDomain: async (request) => {
      await teamDomains.delete(authOf(request).project.id, request.params.domain_id);
      return { success: true } as const;
    },
    verifyTeamDomain: async (request) => toTeamDomainView(await teamDomains.verify(authOf(request).project.id, request.params.domain_id)),

    getSsoConnectionForEmail: async (request) => teamDomains.discover(authOf(request).project.id, request.body.email),

    redirectToSsoProvider: async (request, reply) => {
      const { query } = request;
      const location = await ssoSignIn.authorize(request.params.connection_id, {
        clientId: query.client_id,
        clientSecret: query.client_secret,
        redirectUri: query.redirect_uri,
        state: query.state,
        codeChallenge: query.code_challenge,
        errorRedirectUrl: query.error_redirect_uri,
        afterCallbackRedirectUrl: query.after_callback_redirect_url,
        loginHint: query.login_hint,
      });
      return redirect(reply, 307, location);
    },
    getSsoSamlMetadata: async (request, reply) =>
      reply.type('application/samlmetadata+xml; charset=utf-8').send(await ssoSignIn.samlMetadata(request.params.connection_id)),
    receiveSsoSamlResponse: async (request, reply) =>
      redirect(reply, 303, await ssoSignIn.receiveSamlResponse(request.params.connection_id, request.body.SAMLResponse)),
    redirectFromSsoOidcProvider: async (request, reply) =>
      redirect(reply, 303, await ssoSignIn.receiveOidcCallback(request.params.connection_id, stringsOf(request.query))),
  } satisfies Partial<OperationHandlers>;
}
