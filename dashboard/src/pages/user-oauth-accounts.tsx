import { api, Link, type OAuthProviderList, type OAuthProviderView, type UpdateOAuthProviderBody } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { optimisticUpdate } from '../optimistic.ts';
import { paths } from '../routes.ts';
import { around } from '../i18n/around.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, QueryState, Section, TextField } from '../ui.tsx';

/** A provider of the project's config (`auth.oauth.providers.<id>`): its config id and type (the id when not set). */
type ConfiguredProvider = { id: string; type: string };

/** The providers a user's account may be linked with: those of the rendered config, as the server checks them. */
function useConfiguredProviders() {
  const { request } = useProjectScope();
  const config = api.useGetProjectConfig({ request, query: { queryKey: api.getGetProjectConfigQueryKey() } });
  const providers = config.data
    ? Object.entries(
        (JSON.parse(config.data.config_string) as { auth?: { oauth?: { providers?: Record<string, { type?: string }> } } }).auth?.oauth
          ?.providers ?? {},
      ).map(([id, provider]): ConfiguredProvider => ({ id, type: provider.type ?? id }))
    : undefined;
  return { ...config, data: providers };
}

const providerLabel = (provider: { id: string; type: string }) =>
  provider.id === provider.type ? provider.id : `${provider.id} (${provider.type})`;

/** Every cached view that shows the user's linked accounts: the list, the connected accounts, the user and the users list (sign-in methods). */
function useRefreshLinks(userId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: api.getListOAuthProvidersQueryKey({ user_id: userId }) }),
      queryClient.invalidateQueries({ queryKey: api.getListConnectedAccountsQueryKey(userId) }),
      queryClient.invalidateQueries({ queryKey: api.getGetUserQueryKey(userId) }),
      queryClient.invalidateQueries({ queryKey: [api.getListUsersQueryKey()[0]] }),
    ]);
}

/**
 * A user's linked OAuth accounts: linked by hand (a provider of the project's config, the provider-side account id
 * and email, sign-in and connected-account access), sign-in and connected accounts switched at once and put back
 * when the server refuses, unlinked behind a confirmation; the server's refusals shown as it words them.
 */
export function OAuthAccounts({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const accounts = api.useListOAuthProviders({ user_id: userId }, { request });
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('oauthAccounts.title')} description={t('oauthAccounts.description')}>
      <QueryState query={accounts} what={t('oauthAccounts.what')}>
        {accounts.data?.items.length === 0 ? <p className="dash-muted">{t('oauthAccounts.none')}</p> : null}
        <ul className="dash-list" aria-label={t('oauthAccounts.linked')}>
          {accounts.data?.items.map((account) => (
            <AccountRow key={account.id} account={account} />
          ))}
        </ul>
      </QueryState>
      <LinkAccountForm userId={userId} />
    </Section>
  );
}

function LinkAccountForm({ userId }: { userId: string }) {
  const { projectId, request } = useProjectScope();
  const providers = useConfiguredProviders();
  const queryClient = useQueryClient();
  const refresh = useRefreshLinks(userId);
  const create = api.useCreateOAuthProvider({ request });
  const empty = { provider: '', accountId: '', email: '', allowSignIn: true, allowConnectedAccounts: true };
  const [form, setForm] = useState(empty);
  // The chosen provider while the config has it, else the first one (the config may change under the form).
  const provider = providers.data?.find((option) => option.id === form.provider)?.id ?? providers.data?.[0]?.id ?? '';
  const { t } = useDashboardTranslation();
  const [noProvidersBefore, noProvidersAfter] = around((mark) => t('oauthAccounts.noProviders', { link: mark }));

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      {
        data: {
          user_id: userId,
          provider_config_id: provider,
          account_id: form.accountId.trim(),
          email: form.email.trim() || null,
          allow_sign_in: form.allowSignIn,
          allow_connected_accounts: form.allowConnectedAccounts,
        },
      },
      {
        onSuccess: () => {
          setForm(empty);
          void refresh();
        },
        // The config read for the list of providers may be stale (a provider removed meanwhile): read it again.
        onError: () => void queryClient.invalidateQueries({ queryKey: api.getGetProjectConfigQueryKey() }),
      },
    );
  }

  return (
    <QueryState query={providers} what={t('oauthAccounts.providersWhat')}>
      {providers.data?.length === 0 ? (
        <p className="dash-muted">
          {noProvidersBefore}
          <Link href={paths.project(projectId, 'auth')}>{t('oauthAccounts.configure')}</Link>
          {noProvidersAfter}
        </p>
      ) : (
        <form className="dash-form dash-link-account" onSubmit={submit} aria-label={t('oauthAccounts.linkLabel')}>
          <h3>{t('oauthAccounts.linkTitle')}</h3>
          <div className="dash-field">
            <label htmlFor="link-provider">{t('oauthAccounts.provider')}</label>
            <select id="link-provider" value={provider} onChange={(event) => setForm({ ...form, provider: event.target.value })}>
              {providers.data?.map((option) => (
                <option key={option.id} value={option.id}>
                  {providerLabel(option)}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label={t('oauthAccounts.accountId')}
            name="link-account-id"
            hint={t('oauthAccounts.accountIdHint')}
            value={form.accountId}
            onChange={(event) => setForm({ ...form, accountId: event.target.value })}
          />
          <TextField
            label={t('oauthAccounts.accountEmail')}
            name="link-email"
            type="email"
            value={form.email}
            onChange={(event) => setForm({ ...form, email: event.target.value })}
          />
          <Checkbox
            label={t('oauthAccounts.signsUserIn')}
            checked={form.allowSignIn}
            onChange={(allowSignIn) => setForm({ ...form, allowSignIn })}
          />
          <Checkbox
            label={t('oauthAccounts.connectedHint')}
            checked={form.allowConnectedAccounts}
            onChange={(allowConnectedAccounts) => setForm({ ...form, allowConnectedAccounts })}
          />
          <ErrorMessage error={create.error} />
          <div className="dash-row">
            <button type="submit" disabled={create.isPending || !provider || !form.accountId.trim()}>
              {create.isPending ? t('oauthAccounts.linking') : t('oauthAccounts.link')}
            </button>
          </div>
        </form>
      )}
    </QueryState>
  );
}

type Switch = 'allow_sign_in' | 'allow_connected_accounts';

function AccountRow({ account }: { account: OAuthProviderView }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const refresh = useRefreshLinks(account.user_id);
  const update = api.useUpdateOAuthProvider({
    request,
    // Shown switched at once; a refusal puts the list back as it was.
    mutation: optimisticUpdate(
      queryClient,
      api.getListOAuthProvidersQueryKey({ user_id: account.user_id }),
      (list: OAuthProviderList, { providerId, data }: { providerId: string; data: UpdateOAuthProviderBody }) => ({
        ...list,
        items: list.items.map((item) =>
          item.id === providerId
            ? {
                ...item,
                allow_sign_in: data.allow_sign_in ?? item.allow_sign_in,
                allow_connected_accounts: data.allow_connected_accounts ?? item.allow_connected_accounts,
              }
            : item,
        ),
      }),
      refresh,
    ),
  });
  const remove = api.useDeleteOAuthProvider({ request });
  const [confirming, setConfirming] = useState(false);
  const provider = providerLabel({ id: account.provider_config_id, type: account.type });
  const accountId = 'account_id' in account ? account.account_id : null;
  const { t } = useDashboardTranslation();
  const toggle = (field: Switch) => (on: boolean) =>
    update.mutate({ userId: account.user_id, providerId: account.id, data: { [field]: on } });
  return (
    <li className="dash-stack dash-oauth-account">
      <span>
        <strong>{provider}</strong>{' '}
        <span className="dash-muted">
          {accountId ? t('oauthAccounts.accountPrefix', { id: accountId }) : ''}
          {account.email ?? t('oauthAccounts.noEmail')}
        </span>
      </span>
      <span className="dash-row">
        <Checkbox label={t('oauthAccounts.signsIn')} checked={account.allow_sign_in} onChange={toggle('allow_sign_in')} />
        <Checkbox
          label={t('oauthAccounts.connected')}
          checked={account.allow_connected_accounts}
          onChange={toggle('allow_connected_accounts')}
        />
        <button
          type="button"
          className="gh-danger"
          disabled={remove.isPending}
          onClick={() => setConfirming(true)}
          aria-label={
            accountId ? t('oauthAccounts.unlinkLabelWithId', { provider, id: accountId }) : t('oauthAccounts.unlinkLabel', { provider })
          }
        >
          {t('oauthAccounts.unlink')}
        </button>
      </span>
      <ErrorMessage error={update.error} />
      <ConfirmDialog
        open={confirming}
        title={t('oauthAccounts.unlinkTitle')}
        confirmLabel={t('oauthAccounts.unlinkConfirm')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(
            { userId: account.user_id, providerId: account.id },
            {
              onSuccess: async () => {
                await refresh();
                setConfirming(false);
              },
            },
          )
        }
      >
        <p>{t('oauthAccounts.unlinkWarning', { provider })}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </li>
  );
}

/** The user's connected accounts: the linked accounts whose provider tokens the app may ask for. */
export function ConnectedAccounts({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const accounts = api.useListConnectedAccounts(userId, { request });
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('oauthAccounts.connectedTitle')} description={t('oauthAccounts.connectedDescription')}>
      <QueryState query={accounts} what={t('oauthAccounts.connectedWhat')}>
        {accounts.data?.items.length === 0 ? <p className="dash-muted">{t('oauthAccounts.noConnected')}</p> : null}
        <ul className="dash-list" aria-label={t('oauthAccounts.connectedTitle')}>
          {accounts.data?.items.map((account) => (
            <li key={`${account.provider}/${account.provider_account_id}`}>
              <strong>{account.provider}</strong>
              <span className="dash-muted">{t('oauthAccounts.account', { id: account.provider_account_id })}</span>
            </li>
          ))}
        </ul>
      </QueryState>
    </Section>
  );
}
