import { api, GatehouseHandler, handlerPageOf, Link, type Theme, useGatehouse, useLocation, UserButton, useUser } from '@gatehouse/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createGatehouseQueryClient } from '@gatehouse/react';
import { type ReactNode, Suspense, useContext, useEffect, useState } from 'react';
import { adminRequest, installDashboardApiClient } from './admin-client.ts';
import { BASE, type ProjectSection, paths, type Route, useRoute } from './routes.ts';
import { ProjectContext, ThemeContext } from './shell-context.ts';
import { lazyPage } from './lazy-page.ts';
import { type Translate, useDashboardTranslation } from './i18n/dashboard-i18n.ts';
import { LanguageSelect } from './i18n/language-select.tsx';
import { Loading, PageErrorBoundary } from './ui.tsx';

/**
 * Each page is a chunk of its own, loaded when first shown (the shell's Suspense shows the loading state
 * meanwhile): the first paint fetches the shell, not every page (recharts only comes with the overview).
 */
const ApiKeysPage = lazyPage(() => import('./pages/api-keys.tsx'), 'ApiKeysPage');
const OAuthAppsPage = lazyPage(() => import('./pages/oauth-apps.tsx'), 'OAuthAppsPage');
const ConnectPage = lazyPage(() => import('./pages/connect.tsx'), 'ConnectPage');
const AuditLogPage = lazyPage(() => import('./pages/audit-log.tsx'), 'AuditLogPage');
const AuthPage = lazyPage(() => import('./pages/auth.tsx'), 'AuthPage');
const SignUpRulesPage = lazyPage(() => import('./pages/sign-up-rules.tsx'), 'SignUpRulesPage');
const DomainsPage = lazyPage(() => import('./pages/domains.tsx'), 'DomainsPage');
const EmailOutboxPage = lazyPage(() => import('./pages/email-outbox.tsx'), 'EmailOutboxPage');
const OutboxEmailPage = lazyPage(() => import('./pages/email-outbox.tsx'), 'OutboxEmailPage');
const EmailDraftPage = lazyPage(() => import('./pages/emails.tsx'), 'EmailDraftPage');
const EmailsPage = lazyPage(() => import('./pages/emails.tsx'), 'EmailsPage');
const EmailTemplatePage = lazyPage(() => import('./pages/emails.tsx'), 'EmailTemplatePage');
const EmailThemePage = lazyPage(() => import('./pages/emails.tsx'), 'EmailThemePage');
const NewProjectPage = lazyPage(() => import('./pages/new-project.tsx'), 'NewProjectPage');
const ProjectSettingsPage = lazyPage(() => import('./pages/project-settings.tsx'), 'ProjectSettingsPage');
const OverviewPage = lazyPage(() => import('./pages/overview.tsx'), 'OverviewPage');
const PermissionsPage = lazyPage(() => import('./pages/permissions.tsx'), 'PermissionsPage');
const ProjectsPage = lazyPage(() => import('./pages/projects.tsx'), 'ProjectsPage');
const TeamPage = lazyPage(() => import('./pages/team.tsx'), 'TeamPage');
const TeamsPage = lazyPage(() => import('./pages/teams.tsx'), 'TeamsPage');
const UserPage = lazyPage(() => import('./pages/user.tsx'), 'UserPage');
const UsersPage = lazyPage(() => import('./pages/users.tsx'), 'UsersPage');
const WebhookLogPage = lazyPage(() => import('./pages/webhook-log.tsx'), 'WebhookLogPage');
const WebhooksPage = lazyPage(() => import('./pages/webhooks.tsx'), 'WebhooksPage');
const DataVaultPage = lazyPage(() => import('./pages/data-vault.tsx'), 'DataVaultPage');
const PaymentTransactionsPage = lazyPage(() => import('./pages/payment-transactions.tsx'), 'PaymentTransactionsPage');
const PaymentsPage = lazyPage(() => import('./pages/payments.tsx'), 'PaymentsPage');
const ConfigPage = lazyPage(() => import('./pages/config.tsx'), 'ConfigPage');
const SsoSetupPage = lazyPage(() => import('./pages/sso-setup.tsx'), 'SsoSetupPage');

/** Each project's pages keep their own cache, so two projects' users never share a query key. */
const projectQueryClients = new Map<string, QueryClient>();

export function App() {
  const gatehouse = useGatehouse();
  const { pathname } = useLocation();
  useState(() => installDashboardApiClient(gatehouse.client, gatehouse.baseUrl));
  useEffect(() => gatehouse.session.subscribe(() => projectQueryClients.clear()), [gatehouse]);
  // The location is read here, above the Suspense boundary: a page that suspends while it mounts (the
  // shell redirecting a signed-out visitor to sign-in, a page's chunk loading) never hides the router,
  // which re-renders on every navigation.
  // Before the language's messages arrive there are no words to show: an empty, busy placeholder.
  return (
    <Suspense fallback={<p className="dash-loading" aria-busy="true" />}>
      {pathname === `${BASE}/sso-setup` ? (
        // A team's IT admin, with a setup link and no account: no sign-in, no shell.
        <SsoSetupPage />
      ) : handlerPageOf(pathname, gatehouse.urls) ? (
        <main className="dash-handler">
          <GatehouseHandler />
        </main>
      ) : (
        <SignedInShell />
      )}
    </Suspense>
  );
}

function sectionLabels(t: Translate): Array<[ProjectSection, string]> {
  return [
    ['overview', t('nav.overview')],
    ['connect', t('nav.connect')],
    ['users', t('nav.users')],
    ['teams', t('nav.teams')],
    ['permissions', t('nav.permissions')],
    ['auth', t('nav.auth')],
    ['sign-up-rules', t('nav.signUpRules')],
    ['domains', t('nav.domains')],
    ['emails', t('nav.emails')],
    ['api-keys', t('nav.apiKeys')],
    ['oauth-apps', t('nav.oauthApps')],
    ['webhooks', t('nav.webhooks')],
    ['audit-log', t('nav.auditLog')],
    ['data-vault', t('nav.dataVault')],
    ['payments', t('nav.payments')],
    ['settings', t('nav.settings')],
    ['config', t('nav.config')],
  ];
}

function SignedInShell() {
  useUser({ or: 'redirect' });
  const route = useRoute();
  const { t } = useDashboardTranslation();
  return (
    <div className="gh dash">
      <a className="dash-skip" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="dash-top">
        <Link href={paths.projects()} className="dash-brand">
          Gatehouse
        </Link>
        <Suspense fallback={null}>
          <ProjectSwitcher current={route.page === 'project' ? route.projectId : undefined} />
        </Suspense>
        <div className="dash-top-end">
          <LanguageSelect />
          <ThemeSelect />
          <Suspense fallback={null}>
            <UserButton />
          </Suspense>
        </div>
      </header>
      <div className="dash-body">
        {route.page === 'project' ? <ProjectNav projectId={route.projectId} section={route.section} /> : null}
        <main id="main" tabIndex={-1} className="dash-main">
          <PageErrorBoundary key={route.page === 'project' ? `${route.projectId}/${route.section}/${route.item ?? ''}` : route.page}>
            <Suspense fallback={<Loading />}>
              <Page route={route} />
            </Suspense>
          </PageErrorBoundary>
        </main>
      </div>
    </div>
  );
}

function Page({ route }: { route: Route }) {
  const { t } = useDashboardTranslation();
  switch (route.page) {
    case 'projects':
      return <ProjectsPage />;
    case 'new-project':
      return <NewProjectPage />;
    case 'project':
      return (
        <ProjectScope projectId={route.projectId}>
          <ProjectPage section={route.section} item={route.item} />
        </ProjectScope>
      );
    default:
      return (
        <div className="dash-panel">
          <h1>{t('shell.notFound')}</h1>
          <p>
            <Link href={paths.projects()}>{t('shell.backToProjects')}</Link>
          </p>
        </div>
      );
  }
}

function ProjectPage({ section, item }: { section: ProjectSection; item: string | undefined }) {
  const { t } = useDashboardTranslation();
  switch (section) {
    case 'overview':
      return <OverviewPage />;
    case 'connect':
      return <ConnectPage />;
    case 'users':
      return item ? <UserPage userId={item} /> : <UsersPage />;
    case 'teams':
      return item ? <TeamPage teamId={item} /> : <TeamsPage />;
    case 'permissions':
      return <PermissionsPage />;
    case 'auth':
      return <AuthPage />;
    case 'sign-up-rules':
      return <SignUpRulesPage />;
    case 'domains':
      return <DomainsPage />;
    case 'emails':
      return <EmailsPage />;
    case 'email-themes':
      return item ? <EmailThemePage themeId={item} /> : <EmailsPage />;
    case 'email-templates':
      return item ? <EmailTemplatePage templateId={item} /> : <EmailsPage />;
    case 'email-drafts':
      return item ? <EmailDraftPage draftId={item} /> : <EmailsPage />;
    case 'email-outbox':
      return item ? <OutboxEmailPage emailId={item} /> : <EmailOutboxPage />;
    case 'api-keys':
      return <ApiKeysPage />;
    case 'oauth-apps':
      return <OAuthAppsPage />;
    case 'webhooks':
      return item ? <WebhookLogPage endpointId={item} /> : <WebhooksPage />;
    case 'audit-log':
      return <AuditLogPage />;
    case 'data-vault':
      return <DataVaultPage />;
    case 'payments':
      return <PaymentsPage />;
    case 'payment-transactions':
      return <PaymentTransactionsPage />;
    case 'settings':
      return <ProjectSettingsPage />;
    case 'config':
      return <ConfigPage />;
    default:
      return <p>{t('shell.notAvailable')}</p>;
  }
}

/** Admin calls on one project: its own cache and the request option every hook below passes. */
function ProjectScope({ projectId, children }: { projectId: string; children: ReactNode }) {
  let client = projectQueryClients.get(projectId);
  if (!client) {
    client = createGatehouseQueryClient();
    projectQueryClients.set(projectId, client);
  }
  return (
    <QueryClientProvider client={client}>
      <ProjectContext.Provider value={{ projectId, request: adminRequest(projectId) }}>{children}</ProjectContext.Provider>
    </QueryClientProvider>
  );
}

function ProjectSwitcher({ current }: { current: string | undefined }) {
  const gatehouse = useGatehouse();
  const { data } = api.useListInternalProjectsSuspense();
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-switcher">
      <label htmlFor="project-switcher">{t('shell.project')}</label>
      <select
        id="project-switcher"
        value={current ?? ''}
        onChange={(event) => gatehouse.navigate(event.target.value ? paths.project(event.target.value) : paths.projects())}
      >
        <option value="">{t('shell.allProjects')}</option>
        {data.items.map((project) => (
          <option key={project.id} value={project.id}>
            {project.display_name}
          </option>
        ))}
      </select>
    </div>
  );
}

function ProjectNav({ projectId, section }: { projectId: string; section: ProjectSection }) {
  const { t } = useDashboardTranslation();
  return (
    <nav className="dash-nav" aria-label={t('nav.label')}>
      <ul>
        {sectionLabels(t).map(([key, label]) => (
          <li key={key}>
            <Link
              href={paths.project(projectId, key)}
              aria-current={
                key === section ||
                (key === 'emails' && section.startsWith('email-')) ||
                (key === 'payments' && section.startsWith('payment-'))
                  ? 'page'
                  : undefined
              }
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ThemeSelect() {
  const { theme, setTheme } = useContext(ThemeContext);
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-switcher">
      <label htmlFor="theme-select">{t('shell.theme')}</label>
      <select id="theme-select" value={theme} onChange={(event) => setTheme(event.target.value as Theme)}>
        <option value="system">{t('shell.themeSystem')}</option>
        <option value="light">{t('shell.themeLight')}</option>
        <option value="dark">{t('shell.themeDark')}</option>
      </select>
    </div>
  );
}
