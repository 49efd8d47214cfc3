import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { NotificationPreference } from '../../generated/hooks.schemas.ts';
import { getListNotificationPreferencesQueryKey, useUpdateNotificationPreference } from '../../generated/hooks.ts';
import { useNotificationPreferences } from '../../hooks/use-notification-preferences.ts';
import { RequestError } from '../../ui/form.tsx';
import { notificationCategoryName } from '../../ui/protocol-words.ts';
import { useTranslation } from '../../i18n/i18n-context.ts';

export function NotificationsSection() {
  const preferences = useNotificationPreferences();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = getListNotificationPreferencesQueryKey('me');
  // The box flips within the click (React state; the query cache notifies its subscribers a tick
  // later, and a controlled box would spring back meanwhile); the server's answer settles it.
  const [flipped, setFlipped] = useState<Record<string, boolean>>({});
  const update = useUpdateNotificationPreference({
    mutation: {
      onMutate: ({ notificationCategoryId, data }) =>
        queryClient.setQueryData<NotificationPreference[]>(key, (current) =>
          current?.map((item) => (item.notification_category_id === notificationCategoryId ? { ...item, enabled: data.enabled } : item)),
        ),
      onSettled: async (_data, _error, { notificationCategoryId }) => {
        await queryClient.invalidateQueries({ queryKey: key });
        setFlipped(({ [notificationCategoryId]: _settled, ...others }) => others);
      },
    },
  });
  return (
    <section aria-labelledby="gh-notifications">
      <h2 id="gh-notifications">{t('notifications.title')}</h2>
      <ul className="gh-list">
        {preferences.map((preference) => (
          <li key={preference.notification_category_id}>
            <label className="gh-row">
              <input
                type="checkbox"
                checked={flipped[preference.notification_category_id] ?? preference.enabled}
                disabled={!preference.can_disable}
                onChange={(event) => {
                  const enabled = event.target.checked;
                  setFlipped((current) => ({ ...current, [preference.notification_category_id]: enabled }));
                  update.mutate({ userId: 'me', notificationCategoryId: preference.notification_category_id, data: { enabled } });
                }}
              />
              {notificationCategoryName(t, preference)}
            </label>
            {preference.can_disable ? null : <span className="gh-muted">{t('notifications.alwaysSent')}</span>}
          </li>
        ))}
      </ul>
      <RequestError error={update.error} />
    </section>
  );
}
