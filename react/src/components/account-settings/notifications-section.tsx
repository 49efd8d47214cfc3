import { useQueryClient } from '@tanstack/react-query';
import type { NotificationPreference } from '../../generated/hooks.schemas.ts';
import { getListNotificationPreferencesQueryKey, useUpdateNotificationPreference } from '../../generated/hooks.ts';
import { useNotificationPreferences } from '../../hooks/use-notification-preferences.ts';
import { RequestError } from '../../ui/form.tsx';

export function NotificationsSection() {
  const preferences = useNotificationPreferences();
  const queryClient = useQueryClient();
  const key = getListNotificationPreferencesQueryKey('me');
  // The box flips at once; the server's answer (or a refetch after an error) settles it.
  const update = useUpdateNotificationPreference({
    mutation: {
      onMutate: ({ notificationCategoryId, data }) =>
        queryClient.setQueryData<NotificationPreference[]>(key, (current) =>
          current?.map((item) => (item.notification_category_id === notificationCategoryId ? { ...item, enabled: data.enabled } : item)),
        ),
      onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
    },
  });
  return (
    <section aria-labelledby="gh-notifications">
      <h2 id="gh-notifications">Email notifications</h2>
      <ul className="gh-list">
        {preferences.map((preference) => (
          <li key={preference.notification_category_id}>
            <label className="gh-row">
              <input
                type="checkbox"
                checked={preference.enabled}
                disabled={!preference.can_disable}
                onChange={(event) =>
                  update.mutate({
                    userId: 'me',
                    notificationCategoryId: preference.notification_category_id,
                    data: { enabled: event.target.checked },
                  })
                }
              />
              {preference.notification_category_name}
            </label>
            {preference.can_disable ? null : <span className="gh-muted">always sent (account and security emails)</span>}
          </li>
        ))}
      </ul>
      <RequestError error={update.error} />
    </section>
  );
}
