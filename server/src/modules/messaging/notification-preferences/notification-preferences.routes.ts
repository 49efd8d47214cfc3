import { UserAuthenticationRequiredError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { NotificationPreferenceService } from './notification-preference.service.ts';
import { authOf } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';

/**
 * The user whose preferences are meant: `me` or, on client access, the signed-in user's own id.
 * A client naming a user id with no user token is USER_AUTHENTICATION_REQUIRED (docs/protocol/endpoints.md §21),
 * not the plain 403 that `resolveUserId` gives a client naming someone else.
 */
function targetUserId(auth: RequestAuth, requested: string): string {
  if (auth.accessType === 'client' && !auth.user && requested !== 'me') throw new UserAuthenticationRequiredError();
  return resolveUserId(auth, requested);
}

export function notificationPreferenceHandlers(services: { notificationPreferences: NotificationPreferenceService }) {
  const preferences = services.notificationPreferences;
  return {
    listNotificationPreferences: async (request) => {
      const auth = authOf(request);
      const items = await preferences.list(auth.project.id, targetUserId(auth, request.params.user_id));
      return { items, is_paginated: false as const };
    },

    updateNotificationPreference: async (request) => {
      const auth = authOf(request);
      const userId = targetUserId(auth, request.params.user_id);
      return preferences.update(auth.project.id, userId, request.params.notification_category_id, request.body.enabled);
    },
  } satisfies Partial<OperationHandlers>;
}
