import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import { authOf, userOf } from '../../../request-context/auth-of.ts';
import { MfaLockedOutError, type MfaService } from './mfa.service.ts';

export function mfaHandlers(services: { mfa: MfaService }) {
  return {
    signInWithMfa: async (request, reply) => {
      try {
        return await services.mfa.signInWithSecondFactor(authOf(request).project, request.body, request.ip);
      } catch (error) {
        if (error instanceof MfaLockedOutError) reply.header('retry-after', String(error.retryAfterSeconds));
        throw error;
      }
    },

    createMfaRecoveryCodes: async (request) => {
      return { recovery_codes: await services.mfa.createRecoveryCodes(authOf(request).project, userOf(request)) };
    },
  } satisfies Partial<OperationHandlers>;
}
