import { defineModule } from '../../../kernel/module.ts';
import { accessTokensModule } from '../access-tokens/index.ts';
import { sessionsModule } from '../sessions/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../verification-codes/index.ts';
import { signInHandlers } from './sign-in.routes.ts';
import { SignInService } from './sign-in.service.ts';

/** Where every sign-in ends (a session and its first access token, or the MFA challenge). */
export const signInModule = defineModule({
  name: 'sign-in',
  requires: [sessionsModule, accessTokensModule, verificationCodesModule, usersModule],
  services: ({ sessions, accessTokens, verificationCodes }) => ({ signIn: new SignInService(sessions, accessTokens, verificationCodes) }),
  handlers: signInHandlers,
});

// The module's public surface: what other modules may import (through this file only).
export type { SignInService, SignInTokens } from './sign-in.service.ts';
