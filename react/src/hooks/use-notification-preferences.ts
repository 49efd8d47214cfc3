import { useSuspenseQuery } from '@tanstack/react-query';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListNotificationPreferencesQueryKey, listNotificationPreferences } from '../generated/hooks.ts';
import type { NotificationPreference } from '../generated/hooks.schemas.ts';
import { whenSignedIn } from './signed-in.ts';

/** Which kinds of email the signed-in user receives (Transactional always, Marketing by choice). */
export function useNotificationPreferences(): NotificationPreference[] {
  const { session } = useGatehouse();
  return useSuspenseQuery({
    queryKey: getListNotificationPreferencesQueryKey('me'),
    queryFn: ({ signal }) =>
      whenSignedIn<NotificationPreference[]>(session, [], async () => (await listNotificationPreferences('me', { signal })).items),
  }).data;
}
