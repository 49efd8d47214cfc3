import { api, Link } from '@gatehouse/react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { formatDate, PageHeader, Section } from '../ui.tsx';

const accent = '#2563eb';
const second = '#16a34a';

/**
 * The project at a glance: total users, daily sign-ups and active users over 30 days, sign-up
 * methods and countries (recharts), and the users who signed up or were active last.
 */
export function OverviewPage() {
  const { projectId, request } = useProjectScope();
  const { data: metrics } = api.useGetProjectMetricsSuspense(undefined, { request });
  const activeByDay = new Map(metrics.daily_active_users.map((day) => [day.date, day.activity]));
  const daily = metrics.daily_users.map((day) => ({
    date: day.date.slice(5),
    signUps: day.activity,
    active: activeByDay.get(day.date) ?? 0,
  }));
  const countries = Object.entries(metrics.users_by_country)
    .map(([country, users]) => ({ country, users }))
    .sort((a, b) => b.users - a.users)
    .slice(0, 10);
  const methods = metrics.login_methods.map((entry) => ({ method: entry.method, users: entry.count }));

  return (
    <>
      <PageHeader title="Overview" />
      <div className="dash-stats">
        <div className="dash-panel">
          <p className="dash-muted">Total users</p>
          <p className="dash-stat" data-testid="total-users">
            {metrics.total_users.toLocaleString('en-US')}
          </p>
        </div>
        <div className="dash-panel">
          <p className="dash-muted">Sign-ups, last 30 days</p>
          <p className="dash-stat">{metrics.daily_users.reduce((sum, day) => sum + day.activity, 0).toLocaleString('en-US')}</p>
        </div>
      </div>
      <Section title="Daily sign-ups and active users">
        <figure className="dash-chart" aria-label="Daily sign-ups and active users over the last 30 days">
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={daily}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Line type="monotone" dataKey="signUps" name="Sign-ups" stroke={accent} dot={false} />
              <Line type="monotone" dataKey="active" name="Active users" stroke={second} dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </figure>
      </Section>
      <div className="dash-grid-2">
        <Section title="Sign-up methods">
          <figure className="dash-chart" aria-label="Users by sign-up method">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={methods}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="method" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="users" name="Users" fill={accent} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
        </Section>
        <Section title="Countries">
          <figure className="dash-chart" aria-label="Users by country">
            <ResponsiveContainer width="100%" height={220}>
              <BarChart data={countries}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="country" />
                <YAxis allowDecimals={false} />
                <Tooltip />
                <Bar dataKey="users" name="Users" fill={second} />
              </BarChart>
            </ResponsiveContainer>
          </figure>
        </Section>
      </div>
      <div className="dash-grid-2">
        <Section title="Recently signed up">
          <RecentUsers projectId={projectId} users={metrics.recently_registered} when={(user) => user.signed_up_at_millis} />
        </Section>
        <Section title="Recently active">
          <RecentUsers projectId={projectId} users={metrics.recently_active} when={(user) => user.last_active_at_millis} />
        </Section>
      </div>
    </>
  );
}

type Recent = {
  id: string;
  display_name: string | null;
  primary_email: string | null;
  signed_up_at_millis: number;
  last_active_at_millis: number | null;
};

function RecentUsers({ projectId, users, when }: { projectId: string; users: Recent[]; when: (user: Recent) => number | null }) {
  if (users.length === 0) return <p className="dash-muted">No users yet.</p>;
  return (
    <ul className="dash-list">
      {users.slice(0, 8).map((user) => (
        <li key={user.id}>
          <Link href={paths.project(projectId, 'users', user.id)}>{user.display_name || user.primary_email || user.id}</Link>
          <span className="dash-muted">{formatDate(when(user))}</span>
        </li>
      ))}
    </ul>
  );
}
