import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf, userOf } from '../../../request-context/auth-of.ts';
import type { MfaService } from './mfa.service.ts';

export function mfaHandlers(services: { mfa: MfaService }) {
  return {
    signInWithMfa: async (request) => services.mfa.signInWithSecondFactor(authOf(request).project, request.body, request.ip),

    createMfaRecoveryCodes: async (request) => {
      return { recovery_codes: await services.mfa.createRecoveryCodes(authOf(request).project, userOf(request)) };
    },
  } satisfies Partial<OperationHandlers>;
}
