import { defineModule } from '../../kernel/module.ts';
import { VerificationCodeService } from './verification-code.service.ts';

/** Single-use codes (email links, OTPs, invitations, MFA attempts, passkey challenges), stored as digests. */
export const verificationCodesModule = defineModule({
  name: 'verification-codes',
  services: (_needs, { db }) => ({ verificationCodes: new VerificationCodeService(db) }),
});
