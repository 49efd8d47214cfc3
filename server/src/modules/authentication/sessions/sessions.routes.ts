import { RefreshTokenNotFoundOrExpiredError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { SessionService } from './session.service.ts';
import type { TokenService } from './token.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { deviceOfUserAgent } from '../../../lib/place/device.ts';
import { placeOfIp } from '../../../lib/place/ip-place.ts';

/** Stack's `last_used_at_end_user_ip_info`: the address and, for a public one, its place from the bundled database. */
async function ipInfoOf(ip: string) {
  const place = await placeOfIp(ip);
  return {
    ip,
    countryCode: place?.countryCode ?? null,
    regionCode: null,
    regionName: place?.regionName ?? null,
    cityName: place?.cityName ?? null,
    latitude: place?.latitude ?? null,
    longitude: place?.longitude ?? null,
    tzIdentifier: null,
  };
}

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
      const items = await Promise.all(
        sessions.map(async (session) => {
          const device = deviceOfUserAgent(session.user_agent);
          return {
            id: session.id,
            user_id: session.user_id,
            created_at: session.created_at.getTime(),
            last_used_at: session.last_used_at.getTime(),
            is_impersonation: session.is_impersonation,
            is_current_session: session.id === current,
            ...(session.last_used_ip ? { last_used_at_end_user_ip_info: await ipInfoOf(session.last_used_ip) } : {}),
            ...(device ? { device: { browser: device.browser, os: device.os, device_type: device.deviceType } } : {}),
          };
        }),
      );
      return { is_paginated: false as const, items };
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
