import { RefreshTokenNotFoundOrExpiredError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { SessionService } from './session.service.ts';
import type { TokenService } from './token.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';

export function sessionHandlers(services: { sessions: SessionService; tokens: TokenService; users: UserService }) {
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
