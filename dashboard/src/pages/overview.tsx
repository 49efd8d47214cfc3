import { api, Link } from '@gatehouse/react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { PageHeader, type PanelQuery, QueryState, Section } from '../ui.tsx';
import { IpPlaceAttribution } from './session-place.tsx';

const accent = '#2563eb';
const second = '#16a34a';

/**
 * The charts' words in the theme's colours: recharts draws its tooltip white with the series' colour as
 * the text and grey ticks, unreadable in the dark theme and below AA for the green series in light (the
 * tooltip also shows when the chart has the keyboard's focus). The series keep their colour in the lines,
 * bars and legend icons.
 */
const tooltip = {
  contentStyle: { background: 'var(--gh-bg)', borderColor: 'var(--gh-border)', color: 'var(--gh-fg)' },
  labelStyle: { color: 'var(--gh-fg)' },
  itemStyle: { color: 'var(--gh-fg)' },
} as const;
const tick = { fill: 'var(--gh-muted)' } as const;
const legendText = (value: string) => <span className="dash-chart-legend">{value}</span>;

/**
 * The project at a glance: users and anonymous users (user-counts), daily sign-ups and active users
 * over 30 days, sign-up methods and countries (recharts), and the users who signed up or were active
 * last. Each panel shows its own loading and error state (with Try again), so the page draws at once.
 */
export function OverviewPage() {
  const { projectId, request } = useProjectScope();
  const counts = api.useGetUserCounts({ request });
  const metrics = api.useGetProjectMetrics(undefined, { request });
  const data = metrics.data;
  const activeByDay = new Map((data?.daily_active_users ?? []).map((day) => [day.date, day.activity]));
  const daily = (data?.daily_users ?? []).map((day) => ({
    date: day.date.slice(5),
    signUps: day.activity,
    active: activeByDay.get(day.date) ?? 0,
  }));
  const countries = Object.entries(data?.users_by_country ?? {})
    .map(([country, users]) => ({ country, users }))
    .sort((a, b) => b.users - a.users)
    .slice(0, 10);
  const methods = (data?.login_methods ?? []).map((entry) => ({ method: entry.method, users: entry.count }));
  const { t } = useDashboardTranslation();

  return (
    <>
      <PageHeader title={t('nav.overview')} />
      <div className="dash-stats">
        <Stat label={t('overview.totalUsers')} testId="total-users" query={counts} value={(answer) => answer.total_users} />
        <Stat label={t('overview.anonymousUsers')} testId="anonymous-users" query={counts} value={(answer) => answer.anonymous_users} />
        <Stat
          label={t('overview.signUps30Days')}
          testId="sign-ups-30-days"
          query={metrics}
          value={(answer) => answer.daily_users.reduce((sum, day) => sum + day.activity, 0)}
        />
      </div>
      <Section title={t('overview.daily')}>
        <QueryState query={metrics} what={t('overview.dailyWhat')}>
          <figure className="dash-chart" aria-label={t('overview.dailyChart')}>
            <ResponsiveContainer width="100%" height={260}>
              <LineChart data={daily}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" tick={tick} />
                <YAxis allowDecimals={false} tick={tick} />
                <Tooltip {...tooltip} />
                <Legend formatter={legendText} />
                <Line type="monotone" dataKey="signUps" name={t('overview.signUps')} stroke={accent} dot={false} />
                <Line type="monotone" dataKey="active" name={t('overview.activeUsers')} stroke={second} dot={false} />
              </LineChart>
            </ResponsiveContainer>
          </figure>
        </QueryState>
      </Section>
      <div className="dash-grid-2">
        <Section title={t('overview.methods')}>
          <QueryState query={metrics} what={t('overview.methodsWhat')}>
            {methods.length === 0 ? (
              <p className="dash-muted">{t('users.none')}</p>
            ) : (
              <figure className="dash-chart" aria-label={t('overview.usersByMethod')}>
                <ResponsiveContainer width="100%" height={220}>
                  <BarChart data={methods}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="method" tick={tick} />
                    <YAxis allowDecimals={false} tick={tick} />
                    <Tooltip {...tooltip} />
                    <Bar dataKey="users" name={t('nav.users')} fill={accent} />
                  </BarChart>
                </ResponsiveContainer>
              </figure>
            )}
          </QueryState>
        </Section>
        <Section title={t('overview.countries')}>
          <QueryState query={metrics} what={t('overview.countriesWhat')}>
            {countries.length === 0 ? (
              // A user's country is their `country_code`: given through the server API, else placed from the sign-up's IP.
              <p className="dash-muted">{t('overview.noCountry')}</p>
            ) : (
              <figure className="dash-chart" aria-label={t('overview.usersByCountry')}>
                <ResponsiveContainer width="100%" height={220}>
                  <BarChart data={countries}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="country" tick={tick} />
                    <YAxis allowDecimals={false} tick={tick} />
                    <Tooltip {...tooltip} />
                    <Bar dataKey="users" name={t('nav.users')} fill={second} />
                  </BarChart>
                </ResponsiveContainer>
                <IpPlaceAttribution />
              </figure>
            )}
          </QueryState>
        </Section>
      </div>
      <div className="dash-grid-2">
        <Section title={t('overview.recentlySignedUp')}>
          <QueryState query={metrics} what={t('overview.latestWhat')}>
            <RecentUsers projectId={projectId} users={data?.recently_registered ?? []} when={(user) => user.signed_up_at_millis} />
          </QueryState>
        </Section>
        <Section title={t('overview.recentlyActive')}>
          <QueryState query={metrics} what={t('overview.latestActiveWhat')}>
            <RecentUsers projectId={projectId} users={data?.recently_active ?? []} when={(user) => user.last_active_at_millis} />
          </QueryState>
        </Section>
      </div>
    </>
  );
}

function Stat<T>({ label, testId, query, value }: { label: string; testId: string; query: PanelQuery<T>; value: (data: T) => number }) {
  const { language, formatNumber } = useDashboardTranslation();
  // English's label reads mid-sentence in lower case; other languages' nouns keep theirs (German's capitals).
  return (
    <div className="dash-panel">
      <p className="dash-muted">{label}</p>
      {query.data !== undefined ? (
        <p className="dash-stat" data-testid={testId}>
          {formatNumber(value(query.data))}
        </p>
      ) : (
        <QueryState query={query} what={language === 'en' ? label.toLowerCase() : label}>
          {null}
        </QueryState>
      )}
    </div>
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
  const { t, formatDate } = useDashboardTranslation();
  if (users.length === 0) return <p className="dash-muted">{t('users.none')}</p>;
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
