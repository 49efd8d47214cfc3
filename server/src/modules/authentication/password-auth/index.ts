import { auditLogModule } from '../../administration/audit-log/index.ts';
import { defineModule } from '../../../kernel/module.ts';
import { botChallengesModule } from '../bot-challenges/index.ts';
import { contactChannelsModule } from '../../identity/contact-channels/index.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { sessionsModule } from '../sessions/index.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../verification-codes/index.ts';
import { passwordAuthHandlers } from './password-auth.routes.ts';
import { PasswordAuthService } from './password-auth.service.ts';
import { PasswordResetService } from './password-reset.service.ts';

/** Password sign-up, sign-in, changes and the emailed reset. */
export const passwordAuthModule = defineModule({
  name: 'password-auth',
  requires: [
    usersModule,
    sessionsModule,
    signInModule,
    contactChannelsModule,
    verificationCodesModule,
    emailModule,
    botChallengesModule,
    auditLogModule,
  ],
  services: ({ users, sessions, signIn, contactChannels, verificationCodes, email, botChallenges, auditLog }) => ({
    passwordAuth: new PasswordAuthService(
      users,
      sessions,
      signIn,
      (project, user, callbackUrl) => contactChannels.sendPrimaryEmailVerification(project, user, callbackUrl),
      botChallenges,
      auditLog,
    ),
    passwordReset: new PasswordResetService(users, sessions, verificationCodes, email),
  }),
  handlers: passwordAuthHandlers,
});
