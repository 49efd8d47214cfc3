import { api } from '@gatehouse/react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { QueryState, Section } from '../ui.tsx';

/**
 * A user's activity per day over the last 30 days (`/internal/user-activity`). Gatehouse keeps each
 * user's latest activity, not a history of it, so the strip marks the day of the latest activity.
 * Drawn with plain elements (one cell per day, each named for assistive technology): the user page
 * stays free of the charting library, which only the overview loads.
 */
export function UserActivity({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const activity = api.useGetUserActivity({ user_id: userId }, { request });
  const points = activity.data?.data_points ?? [];
  const activeDays = points.filter((point) => point.activity > 0).length;
  const first = points[0]?.date;
  const last = points.at(-1)?.date;
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('user.activity')} description={t('user.activityDescription')}>
      <QueryState query={activity} what={t('user.activityWhat')}>
        <p className="dash-muted" data-testid="active-days">
          {activeDays === 0 ? t('user.notActive') : t('user.activeOn', { days: activeDays })}
        </p>
        <ol className="dash-activity" aria-label={t('user.activityPerDay')}>
          {points.map((point) => (
            <li key={point.date} className={point.activity > 0 ? 'dash-activity-on' : undefined} title={point.date}>
              <span className="dash-visually-hidden">
                {point.activity > 0 ? t('user.dayActive', { date: point.date }) : t('user.dayInactive', { date: point.date })}
              </span>
            </li>
          ))}
        </ol>
        {first && last ? (
          <p className="dash-row dash-activity-range dash-muted" aria-hidden="true">
            <span>{first}</span>
            <span>{last}</span>
          </p>
        ) : null}
      </QueryState>
    </Section>
  );
}
