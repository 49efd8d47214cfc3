import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useProject } from '../hooks/use-project.ts';
import { useUser } from '../hooks/use-user.ts';
import { Card, Loading } from '../ui/form.tsx';
import { ApiKeysSection } from './account-settings/api-keys-section.tsx';
import { ConnectedAccountsSection } from './account-settings/connected-accounts-section.tsx';
import { DeleteAccountSection } from './account-settings/delete-account-section.tsx';
import { EmailsSection } from './account-settings/emails-section.tsx';
import { LanguageSection } from './account-settings/language-section.tsx';
import { MfaSection } from './account-settings/mfa-section.tsx';
import { NotificationsSection } from './account-settings/notifications-section.tsx';
import { PasskeysSection } from './account-settings/passkeys-section.tsx';
import { PasswordSection } from './account-settings/password-section.tsx';
import { ProfileSection } from './account-settings/profile-section.tsx';
import { SessionsSection } from './account-settings/sessions-section.tsx';
import { TeamsSection } from './account-settings/teams-section.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

// Loaded when its tab is opened: most users never connect an application.
const ConnectedAppsSection = lazy(async () => ({
  default: (await import('./account-settings/connected-apps-section.tsx')).ConnectedAppsSection,
}));

type Tab = { id: string; label: string; render: () => ReactNode };

/** Everything a user manages about their account, one tab per concern. Signed-out users are sent to sign in. */
export function AccountSettings() {
  const user = useUser({ or: 'redirect' });
  const { config } = useProject();
  const { t } = useTranslation();
  const tabs: Tab[] = [
    {
      id: 'profile',
      label: t('account.tabProfile'),
      render: () => (
        <>
          <ProfileSection user={user} />
          <LanguageSection user={user} />
        </>
      ),
    },
    { id: 'emails', label: t('account.tabEmails'), render: () => <EmailsSection /> },
    { id: 'password', label: t('account.tabPassword'), render: () => <PasswordSection user={user} /> },
    { id: 'mfa', label: t('account.tabMfa'), render: () => <MfaSection user={user} /> },
    { id: 'sessions', label: t('account.tabSessions'), render: () => <SessionsSection /> },
    { id: 'teams', label: t('account.tabTeams'), render: () => <TeamsSection /> },
    { id: 'connected-apps', label: t('account.tabConnectedApps'), render: () => <ConnectedAppsSection /> },
    { id: 'notifications', label: t('account.tabNotifications'), render: () => <NotificationsSection /> },
  ];
  if (config.passkey_enabled)
    tabs.splice(4, 0, { id: 'passkeys', label: t('account.tabPasskeys'), render: () => <PasskeysSection user={user} /> });
  // The built-in providers and the project's own OpenID providers alike.
  if (config.enabled_oauth_providers.length > 0 || (config.oidc_providers?.length ?? 0) > 0)
    tabs.splice(3, 0, { id: 'connected-accounts', label: t('account.tabConnectedAccounts'), render: () => <ConnectedAccountsSection /> });
  if (config.allow_user_api_keys) tabs.push({ id: 'api-keys', label: t('account.tabApiKeys'), render: () => <ApiKeysSection /> });
  if (config.client_user_deletion_enabled)
    tabs.push({ id: 'delete', label: t('account.tabDelete'), render: () => <DeleteAccountSection /> });
  const [selected, setSelected] = useState('profile');
  const tab = tabs.find((candidate) => candidate.id === selected) ?? tabs[0]!;

  return (
    <Card title={t('account.title')} wide>
      <div className="gh-tabs" role="tablist" aria-label={t('account.title')}>
        {tabs.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            aria-selected={candidate.id === tab.id}
            onClick={() => setSelected(candidate.id)}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        <Suspense fallback={<Loading />}>{tab.render()}</Suspense>
      </div>
    </Card>
  );
}
