import { RefreshTokenNotFoundOrExpiredError, UserIdDoesNotExistError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../routing/operation-handlers.ts';
import type { Services } from '../../services.ts';
import { authOf } from '../auth/auth-of.ts';
import { resolveUserId } from '../auth/resolve-user-id.ts';

export function sessionHandlers(services: Services) {
  return {
    refreshCurrentSession: async (request) => {
      const auth = authOf(request);
      if (!auth.refreshToken) throw new RefreshTokenNotFoundOrExpiredError();
      const { accessToken, refreshToken } = await services.tokens.refresh(auth.project, auth.refreshToken, request.ip);
      return refreshToken === auth.refreshToken
        ? { access_token: accessToken }
        : { access_token: accessToken, refresh_token: refreshToken };
    },

    deleteCurrentSession: async (request) => {
      const auth = authOf(request);
      await services.sessions.endCurrent(auth.project.id, auth.user?.claims.refresh_token_id as string);
      return { success: true } as const;
    },

    listSessions: async (request) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.query.user_id);
      await services.users.get(auth.project.id, userId);
      const current = auth.user?.claims.refresh_token_id;
      const sessions = await services.sessions.listActive(auth.project.id, userId);
      return {
        is_paginated: false as const,
        items: sessions.map((session) => ({
          id: session.id,
          user_id: session.user_id,
          created_at: session.created_at.getTime(),
          last_used_at: session.last_used_at.getTime(),
          is_impersonation: session.is_impersonation,
          is_current_session: session.id === current,
          ...(session.last_used_ip ? { last_used_at_end_user_ip_info: { ip: session.last_used_ip } } : {}),
        })),
      };
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

    deleteSession: async (request) => {
      const auth = authOf(request);
      const userId = resolveUserId(auth, request.query.user_id);
      await services.sessions.endOther(
        auth.project.id,
        userId,
        request.params.session_id.toLowerCase(),
        auth.user?.claims.refresh_token_id,
      );
      return { success: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
