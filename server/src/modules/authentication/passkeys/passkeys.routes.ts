import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { PasskeyService } from './passkey.service.ts';
import { authOf, requireLiveSession, userOf } from '../../../request-context/auth-of.ts';

export function passkeyHandlers(services: { passkeys: PasskeyService }) {
  return {
    initiatePasskeyRegistration: async (request) => services.passkeys.initiateRegistration(authOf(request).project, userOf(request)),

    registerPasskey: async (request) => {
      await requireLiveSession(request);
      return services.passkeys.register(authOf(request).project, userOf(request), request.body.credential, request.body.code);
    },

    initiatePasskeyAuthentication: async (request) => services.passkeys.initiateAuthentication(authOf(request).project),

    signInWithPasskey: async (request) =>
      services.passkeys.signInWithPasskey(authOf(request).project, request.body.authentication_response, request.body.code, request.ip),
  } satisfies Partial<OperationHandlers>;
}
