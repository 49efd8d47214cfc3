import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { VerificationCodeService } from '../verification-codes/index.ts';
import type { OtpAuthService } from './otp-auth.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';

export function otpAuthHandlers(services: { otpAuth: OtpAuthService; verificationCodes: VerificationCodeService }) {
  return {
    sendSignInCode: async (request) =>
      services.otpAuth.sendCode(authOf(request).project, request.body.email, request.body.callback_url, request.body, request.ip),

    signInWithCode: async (request) => services.otpAuth.signInWithCode(authOf(request), request.body.code, request.ip),

    checkSignInCode: async (request) => {
      await services.verificationCodes.redeem(authOf(request).project.id, 'otp_sign_in', request.body.code, { peek: true });
      return { is_code_valid: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
