import { AnonymousAccountsNotEnabledError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../routing/operation-handlers.ts';
import type { Services } from '../../services.ts';
import { authOf } from '../auth/auth-of.ts';

export function anonymousHandlers(services: Services) {
  return {
    signUpAnonymously: async (request) => {
      const { project } = authOf(request);
      if (!project.config.auth.allowAnonymousSignUp) throw new AnonymousAccountsNotEnabledError();
      const user = await services.users.create(project, { is_anonymous: true }, 'anonymous');
      return services.signIn.signIn(project, user, { ip: request.ip });
    },
  } satisfies Partial<OperationHandlers>;
}
