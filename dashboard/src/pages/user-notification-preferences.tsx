import { api, type NotificationPreferenceList } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { optimisticUpdate } from '../optimistic.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, QueryState, Section } from '../ui.tsx';

/** The server's categories (a fixed list, named in English on the wire) in the dashboard's language; another name as it is. */
function categoryName(name: string, t: Translate): string {
  const names: Record<string, string> = {
    Transactional: t('notifications.transactional'),
    Marketing: t('notifications.marketing'),
    'Sign-in alerts': t('notifications.signInAlerts'),
  };
  return names[name] ?? name;
}

/**
 * A user's email notification preferences: each category on or off (changed at once, put back with the
 * server's message when it refuses); a category that cannot be turned off (Transactional) shown as always on.
 */
export function NotificationPreferences({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListNotificationPreferencesQueryKey(userId);
  const preferences = api.useListNotificationPreferences(userId, { request, query: { queryKey: key } });
  const { t } = useDashboardTranslation();
  const update = api.useUpdateNotificationPreference({
    request,
    mutation: optimisticUpdate(
      queryClient,
      key,
      (
        list: NotificationPreferenceList,
        { notificationCategoryId, data }: { notificationCategoryId: string; data: { enabled: boolean } },
      ) => ({
        ...list,
        items: list.items.map((item) =>
          item.notification_category_id === notificationCategoryId ? { ...item, enabled: data.enabled } : item,
        ),
      }),
    ),
  });
  return (
    <Section title={t('notifications.title')} description={t('notifications.description')}>
      <QueryState query={preferences} what={t('notifications.what')}>
        <ul className="dash-list" aria-label={t('notifications.categories')}>
          {preferences.data?.items.map((item) => (
            <li key={item.notification_category_id}>
              <Checkbox
                label={
                  item.can_disable
                    ? categoryName(item.notification_category_name, t)
                    : t('notifications.alwaysOn', { name: categoryName(item.notification_category_name, t) })
                }
                checked={item.enabled}
                disabled={!item.can_disable || update.isPending}
                onChange={(enabled) => update.mutate({ userId, notificationCategoryId: item.notification_category_id, data: { enabled } })}
              />
            </li>
          ))}
        </ul>
      </QueryState>
      <ErrorMessage error={update.error} />
    </Section>
  );
}
