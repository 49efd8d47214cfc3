import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { PasswordAuthService } from './password-auth.service.ts';
import type { PasswordResetService } from './password-reset.service.ts';
import { authOf, requireLiveSession } from '../../../request-context/auth-of.ts';

export function passwordAuthHandlers(services: { passwordAuth: PasswordAuthService; passwordReset: PasswordResetService }) {
  return {
    signUpWithPassword: async (request) => services.passwordAuth.signUp(authOf(request), request.body, request.ip),

    signInWithPassword: async (request) => services.passwordAuth.signInWithPassword(authOf(request).project, request.body, request.ip),

    updatePassword: async (request) => {
      await requireLiveSession(request);
      await services.passwordAuth.updatePassword(authOf(request), request.body);
      return { success: true } as const;
    },

    setPassword: async (request) => {
      await requireLiveSession(request);
      await services.passwordAuth.setPassword(authOf(request), request.body.password);
      return { success: true } as const;
    },

    sendPasswordResetCode: async (request) => {
      await services.passwordReset.sendCode(authOf(request).project, request.body.email, request.body.callback_url);
      return { success: 'maybe, only if user with e-mail exists' } as const;
    },

    checkPasswordResetCode: async (request) => {
      await services.passwordReset.check(authOf(request).project, request.body.code);
      return { is_code_valid: true } as const;
    },

    resetPassword: async (request) => {
      await services.passwordReset.reset(authOf(request).project, request.body.code, request.body.password);
      return { success: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
