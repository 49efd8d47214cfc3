import { api } from '@gatehouse/react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useProjectScope } from '../shell-context.ts';
import { QueryState, Section } from '../ui.tsx';

/**
 * A user's activity per day over the last 30 days (`/internal/user-activity`). Gatehouse keeps each
 * user's latest activity, not a history of it, so the chart marks the day of the latest activity.
 */
export function UserActivity({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const activity = api.useGetUserActivity({ user_id: userId }, { request });
  const points = (activity.data?.data_points ?? []).map((point) => ({ date: point.date.slice(5), active: point.activity }));
  const activeDays = points.filter((point) => point.active > 0).length;
  return (
    <Section title="Activity" description="The last 30 days (UTC): the day of the user's latest activity is marked.">
      <QueryState query={activity} what="the user's activity">
        <p className="dash-muted" data-testid="active-days">
          {activeDays === 0 ? 'Not active in the last 30 days.' : `Active on ${activeDays} of the last 30 days.`}
        </p>
        <figure className="dash-chart" aria-label="The user's activity per day over the last 30 days">
          <ResponsiveContainer width="100%" height={160}>
            <BarChart data={points}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Bar dataKey="active" name="Active" fill="#2563eb" />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      </QueryState>
    </Section>
  );
}
