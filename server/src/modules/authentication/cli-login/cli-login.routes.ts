import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { CliLoginService } from './cli-login.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';

export function cliLoginHandlers(services: { cliLogin: CliLoginService }) {
  return {
    createCliLogin: async (request) => services.cliLogin.start(authOf(request).project, request.body ?? {}),

    // 201 with the refresh token once completed; 200 with the other states.
    pollCliLogin: async (request, reply) => {
      const result = await services.cliLogin.poll(authOf(request).project, request.body.polling_code, request.ip);
      if (result.status !== 'success') return result;
      return reply.status(201).send(result);
    },

    completeCliLogin: async (request) => {
      const auth = authOf(request);
      const { login_code, mode, refresh_token } = request.body;
      if (mode === 'check') return services.cliLogin.check(auth.project, login_code);
      if (mode === 'claim-anon-session') return services.cliLogin.claimAnonSession(auth.project, login_code, request.ip);
      return services.cliLogin.complete(auth, login_code, refresh_token);
    },
  } satisfies Partial<OperationHandlers>;
}
