import { AnonymousAccountsNotEnabledError, UserIdDoesNotExistError } from '@gatehouse/protocol/errors';
import { authOf } from '../../../request-context/auth-of.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { SignInService } from './sign-in.service.ts';

/** The sign-ins that need no credential check: anonymous sign-up and server-created (or impersonation) sessions. */
export function signInHandlers(services: { users: UserService; signIn: SignInService }) {
  return {
    signUpAnonymously: async (request) => {
      const { project } = authOf(request);
      if (!project.config.auth.allowAnonymousSignUp) throw new AnonymousAccountsNotEnabledError();
      const user = await services.users.create(project, { is_anonymous: true }, 'anonymous');
      return services.signIn.signIn(project, user, { ip: request.ip });
    },

    createSession: async (request) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.body.user_id);
      const user = await services.users.find(auth.project.id, userId);
      if (!user) throw new UserIdDoesNotExistError({ user_id: userId });
      const tokens = await services.signIn.signIn(auth.project, user, {
        expiresInMillis: request.body.expires_in_millis,
        isImpersonation: request.body.is_impersonation,
      });
      return { refresh_token: tokens.refresh_token, access_token: tokens.access_token };
    },
  } satisfies Partial<OperationHandlers>;
}
