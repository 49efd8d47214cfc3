import { defineModule } from '../../../kernel/module.ts';
import { VerificationCodeService } from './verification-code.service.ts';

/** Single-use codes (email links, OTPs, invitations, MFA attempts, passkey challenges), stored as digests. */
export const verificationCodesModule = defineModule({
  name: 'verification-codes',
  services: (_needs, { db }) => ({ verificationCodes: new VerificationCodeService(db) }),
});

// The module's public surface: what other modules may import (through this file only).
export { linkWithCode } from './verification-code.service.ts';
export type { VerificationCodeService } from './verification-code.service.ts';
