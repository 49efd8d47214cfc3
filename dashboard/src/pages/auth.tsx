import { type OAuthProviderType, oauthProviderNames, oauthProviderTypes } from '@gatehouse/protocol/oauth-providers';
import { type AdminProject, api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { OidcProviders } from './auth-oidc-providers.tsx';
import { BotChallengeSettings } from './bot-challenge-settings.tsx';
import { CustomClaimsSettings } from './custom-claims-settings.tsx';
import { RequireEmailVerification } from './onboarding-preview.tsx';
import { PasswordPolicySettings } from './password-policy-settings.tsx';
import { useProjectUpdate } from './project-config.ts';

type ProviderId = OAuthProviderType;
const providerIds = oauthProviderTypes;
const providerNames = oauthProviderNames;
type Provider = { id: ProviderId; type: 'shared' | 'standard'; enabled: boolean; client_id: string; client_secret: string };

/**
 * How users sign in: sign-up on/off, password, magic link, passkey, anonymous users, the OAuth
 * providers (shared development keys or the project's own, whose missing client id or secret the
 * server names), and what happens when an OAuth email matches an existing account.
 */
export function AuthPage() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.auth')} />
      <Methods project={project} />
      <EndUserApiKeys project={project} />
      <OAuthProviders key={project.id} project={project} />
      <OidcProviders />
      <MergeStrategy project={project} />
      <PasswordPolicySettings />
      <BotChallengeSettings />
      <CustomClaimsSettings />
    </>
  );
}

function Methods({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const { config } = project;
  const { t } = useDashboardTranslation();
  const toggle = (field: 'sign_up_enabled' | 'credential_enabled' | 'magic_link_enabled' | 'passkey_enabled') => (on: boolean) =>
    update.mutate({ data: { config: { [field]: on } } });
  return (
    <Section title={t('auth.methods')} description={t('auth.savedAsYouGo')}>
      <div className="dash-fieldset">
        <Checkbox label={t('auth.signUpEnabled')} checked={config.sign_up_enabled} onChange={toggle('sign_up_enabled')} />
        <Checkbox label={t('auth.credential')} checked={config.credential_enabled} onChange={toggle('credential_enabled')} />
        <Checkbox label={t('auth.magicLink')} checked={config.magic_link_enabled} onChange={toggle('magic_link_enabled')} />
        <Checkbox label={t('auth.passkeys')} checked={config.passkey_enabled} onChange={toggle('passkey_enabled')} />
        <AnonymousUsers />
        <RequireEmailVerification />
      </div>
      <ErrorMessage error={update.error} />
    </Section>
  );
}

/**
 * Whether users and teams may create API keys of their own (`apiKeys.enabled.user` / `.team`): how the
 * app's users authenticate to its API, so they sit with the sign-in methods, saved through the same
 * project update (shown at once, put back with the server's message when refused).
 */
function EndUserApiKeys({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const queryClient = useQueryClient();
  const { t } = useDashboardTranslation();
  // The user and team pages ask their key lists again (they showed "not enabled", or now should).
  const toggle = (field: 'allow_user_api_keys' | 'allow_team_api_keys') => (on: boolean) =>
    update.mutate(
      { data: { config: { [field]: on } } },
      {
        onSuccess: () =>
          void queryClient.invalidateQueries({
            queryKey: field === 'allow_user_api_keys' ? api.getListUserApiKeysQueryKey() : api.getListTeamApiKeysQueryKey(),
          }),
      },
    );
  return (
    <Section title={t('auth.endUserKeys')} description={t('auth.endUserKeysDescription')}>
      <div className="dash-fieldset">
        <Checkbox label={t('auth.userKeys')} checked={project.config.allow_user_api_keys} onChange={toggle('allow_user_api_keys')} />
        <Checkbox label={t('auth.teamKeys')} checked={project.config.allow_team_api_keys} onChange={toggle('allow_team_api_keys')} />
      </div>
      <ErrorMessage error={update.error} />
    </Section>
  );
}

/** Anonymous sign-up lives in the rendered config (`auth.allowAnonymousSignUp`), edited through the config override. */
function AnonymousUsers() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: key } });
  const override = api.useUpdateProjectConfigOverride({
    request,
    mutation: { onSuccess: (rendered) => queryClient.setQueryData(key, rendered) },
  });
  const rendered = config.data ? (JSON.parse(config.data.config_string) as { auth?: { allowAnonymousSignUp?: boolean } }) : null;
  const pending = override.isPending ? (override.variables?.data.config_override_string.includes('true') ?? null) : null;
  const { t } = useDashboardTranslation();
  return (
    <>
      <Checkbox
        label={t('auth.anonymous')}
        checked={pending ?? rendered?.auth?.allowAnonymousSignUp ?? false}
        disabled={!rendered}
        onChange={(on) =>
          override.mutate({ level: 'project', data: { config_override_string: JSON.stringify({ 'auth.allowAnonymousSignUp': on }) } })
        }
      />
      <ErrorMessage error={override.error ?? config.error} />
    </>
  );
}

const providersOf = (project: AdminProject): Provider[] =>
  project.config.oauth_providers.map((provider) => ({
    id: provider.id,
    type: provider.type,
    enabled: provider.enabled,
    client_id: provider.client_id ?? '',
    client_secret: provider.client_secret ?? '',
  }));

/**
 * The providers as the server has them until the owner edits the list; from the first edit until it is
 * saved, the owner's list (a refetch, e.g. after the Configuration page changed them, does not undo the
 * edits; an unedited form follows it, so saving never writes back a list read before the change).
 */
function OAuthProviders({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const [edited, setEdited] = useState<Provider[] | null>(null);
  const providers = edited ?? providersOf(project);
  const [adding, setAdding] = useState<ProviderId | ''>('');
  const [saved, setSaved] = useState(false);
  const { t } = useDashboardTranslation();
  const available = providerIds.filter((id) => !providers.some((provider) => provider.id === id));
  const edit = (next: (current: Provider[]) => Provider[]) => {
    setSaved(false);
    setEdited((current) => next(current ?? providersOf(project)));
  };
  const change = (id: ProviderId, patch: Partial<Provider>) =>
    edit((current) => current.map((provider) => (provider.id === id ? { ...provider, ...patch } : provider)));

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    update.mutate(
      {
        data: {
          config: {
            oauth_providers: providers.map((provider) =>
              provider.type === 'shared'
                ? { id: provider.id, type: 'shared', enabled: provider.enabled }
                : {
                    id: provider.id,
                    type: 'standard',
                    enabled: provider.enabled,
                    client_id: provider.client_id.trim(),
                    client_secret: provider.client_secret.trim(),
                  },
            ),
          },
        },
      },
      {
        onSuccess: () => {
          setEdited(null);
          setSaved(true);
        },
      },
    );
  }

  return (
    <Section title={t('auth.oauthProviders')} description={t('auth.oauthDescription')}>
      <form className="dash-form" onSubmit={submit}>
        {providers.length === 0 ? <p className="dash-muted">{t('auth.noProviders')}</p> : null}
        {providers.map((provider) => (
          <fieldset key={provider.id} className="dash-provider">
            <legend>{providerNames[provider.id]}</legend>
            <div className="dash-row">
              <Checkbox
                label={t('auth.providerEnabled', { provider: providerNames[provider.id] })}
                checked={provider.enabled}
                onChange={(enabled) => change(provider.id, { enabled })}
              />
              <div className="dash-field">
                <label htmlFor={`${provider.id}-keys`}>{t('auth.providerKeys', { provider: providerNames[provider.id] })}</label>
                <select
                  id={`${provider.id}-keys`}
                  value={provider.type}
                  onChange={(event) => change(provider.id, { type: event.target.value as Provider['type'] })}
                >
                  <option value="shared">{t('auth.sharedKeys')}</option>
                  <option value="standard">{t('auth.ownKeys')}</option>
                </select>
              </div>
              <button
                type="button"
                className="gh-danger"
                onClick={() => edit((current) => current.filter((candidate) => candidate.id !== provider.id))}
              >
                {t('auth.removeProvider', { provider: providerNames[provider.id] })}
              </button>
            </div>
            {provider.type === 'standard' ? (
              <div className="dash-grid-2">
                <TextField
                  label={t('auth.clientId', { provider: providerNames[provider.id] })}
                  name={`${provider.id}-client-id`}
                  value={provider.client_id}
                  onChange={(event) => change(provider.id, { client_id: event.target.value })}
                />
                <TextField
                  label={t('auth.clientSecret', { provider: providerNames[provider.id] })}
                  name={`${provider.id}-client-secret`}
                  type="password"
                  autoComplete="off"
                  value={provider.client_secret}
                  onChange={(event) => change(provider.id, { client_secret: event.target.value })}
                />
              </div>
            ) : null}
          </fieldset>
        ))}
        <div className="dash-row dash-toolbar">
          <div className="dash-field">
            <label htmlFor="add-provider">{t('auth.addProvider')}</label>
            <select id="add-provider" value={adding} onChange={(event) => setAdding(event.target.value as ProviderId)}>
              <option value="">{t('auth.choose')}</option>
              {available.map((id) => (
                <option key={id} value={id}>
                  {providerNames[id]}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            disabled={!adding}
            onClick={() => {
              if (!adding) return;
              edit((current) => [...current, { id: adding, type: 'shared', enabled: true, client_id: '', client_secret: '' }]);
              setAdding('');
            }}
          >
            {t('auth.addProviderButton')}
          </button>
        </div>
        <ErrorMessage error={update.error} />
        {saved ? (
          <p role="status" className="dash-success">
            {t('auth.providersSaved')}
          </p>
        ) : null}
        <div>
          <button type="submit" className="gh-primary" disabled={update.isPending}>
            {update.isPending ? t('auth.saving') : t('auth.saveProviders')}
          </button>
        </div>
      </form>
    </Section>
  );
}

function MergeStrategy({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('auth.merging')} description={t('auth.mergingDescription')}>
      <div className="dash-field">
        <label htmlFor="merge-strategy">{t('auth.mergeStrategy')}</label>
        <select
          id="merge-strategy"
          value={project.config.oauth_account_merge_strategy}
          onChange={(event) =>
            update.mutate({
              data: {
                config: { oauth_account_merge_strategy: event.target.value as AdminProject['config']['oauth_account_merge_strategy'] },
              },
            })
          }
        >
          <option value="link_method">{t('auth.mergeLink')}</option>
          <option value="raise_error">{t('auth.mergeRefuse')}</option>
          <option value="allow_duplicates">{t('auth.mergeSeparate')}</option>
        </select>
      </div>
      <ErrorMessage error={update.error} />
    </Section>
  );
}
