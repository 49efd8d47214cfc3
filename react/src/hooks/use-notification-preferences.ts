import { getListNotificationPreferencesQueryKey, listNotificationPreferences } from '../generated/hooks.ts';
import type { NotificationPreference } from '../generated/hooks.schemas.ts';
import { useSignedInQuery } from './use-signed-in-query.ts';

/** Which kinds of email the signed-in user receives (Transactional always; Marketing and Sign-in alerts by choice). */
export function useNotificationPreferences(): NotificationPreference[] {
  return useSignedInQuery<NotificationPreference[]>(
    getListNotificationPreferencesQueryKey('me'),
    [],
    async (signal) => (await listNotificationPreferences('me', { signal })).items,
  );
}
