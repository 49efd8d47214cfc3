import { defineModule } from '../../../kernel/module.ts';
import { botChallengesModule } from '../bot-challenges/index.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../verification-codes/index.ts';
import { otpAuthHandlers } from './otp-auth.routes.ts';
import { OtpAuthService } from './otp-auth.service.ts';

/** Sign-in (and sign-up) with an emailed magic link / one-time code. */
export const otpAuthModule = defineModule({
  name: 'otp-auth',
  requires: [usersModule, verificationCodesModule, emailModule, signInModule, botChallengesModule],
  services: ({ users, verificationCodes, email, signIn, botChallenges }) => ({
    otpAuth: new OtpAuthService(users, verificationCodes, email, signIn, botChallenges),
  }),
  handlers: otpAuthHandlers,
});
