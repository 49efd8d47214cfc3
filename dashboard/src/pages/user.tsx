import { api, type ServerUser, type ServerUserUpdate, type SessionList } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { optimisticUpdate } from '../optimistic.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { EndUserApiKeys } from './end-user-api-keys.tsx';
import { ContactChannels } from './user-contact-channels.tsx';
import { NotificationPreferences } from './user-notification-preferences.tsx';
import { ConnectedAccounts, OAuthAccounts } from './user-oauth-accounts.tsx';
import { UserActivity } from './user-activity.tsx';
import { DeleteUserButton, ImpersonateButton } from './user-actions.tsx';
import { methodsOf } from './users.tsx';
import { deviceOfSession, IpPlaceAttribution, placeOfSession } from './session-place.tsx';

/**
 * One user of the project: profile, the three metadata kinds as JSON editors, contact channels,
 * sessions (revoke), OAuth accounts, teams, project permissions, API keys; impersonate and delete.
 */
export function UserPage({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const { data: user } = api.useGetUserSuspense(userId, { request });
  const { t, formatDate } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={user.display_name || user.primary_email || user.id}>
        <ImpersonateButton user={user} />
        <DeleteUserButton user={user} />
      </PageHeader>
      <p className="dash-muted">
        <code>{user.id}</code> ·{' '}
        {t('user.summary', {
          signedUp: formatDate(user.signed_up_at_millis),
          lastActive: formatDate(user.last_active_at_millis),
          methods: methodsOf(user, t),
        })}{' '}
        · <span data-testid="sign-up-risk">{riskOf(user, t)}</span>
      </p>
      <Profile key={`profile-${user.id}`} user={user} />
      <UserActivity userId={user.id} />
      <Section title={t('user.metadata')} description={t('user.metadataDescription')}>
        <div className="dash-grid-3">
          <MetadataEditor user={user} field="client_metadata" label={t('user.clientMetadata')} />
          <MetadataEditor user={user} field="client_read_only_metadata" label={t('user.clientReadOnlyMetadata')} />
          <MetadataEditor user={user} field="server_metadata" label={t('user.serverMetadata')} />
        </div>
      </Section>
      <div className="dash-grid-2">
        <ContactChannels userId={user.id} />
        <OAuthAccounts userId={user.id} />
        <ConnectedAccounts userId={user.id} />
        <Sessions userId={user.id} />
        <Teams userId={user.id} />
        <Permissions userId={user.id} />
        <EndUserApiKeys owner={{ kind: 'user', id: user.id }} />
        <NotificationPreferences userId={user.id} />
      </div>
    </>
  );
}

/** Saves a change to the user with the page showing it at once; a refused change puts the old user back. */
/** Stack's sign-up risk scores (0-100), computed at sign-up (the sign-up protection guide gives the formula). */
const riskOf = (user: ServerUser, t: Translate) =>
  t('user.risk', { bot: user.risk_scores.sign_up.bot, abuse: user.risk_scores.sign_up.free_trial_abuse });

function useOptimisticUserUpdate(userId: string) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetUserQueryKey(userId);
  return api.useUpdateUser({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<ServerUser>(key);
        if (previous) queryClient.setQueryData<ServerUser>(key, { ...previous, ...(data as Partial<ServerUser>) });
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (user) => {
        queryClient.setQueryData(key, user);
        void queryClient.invalidateQueries({ queryKey: [api.getListUsersQueryKey()[0]] });
      },
    },
  });
}

function Profile({ user }: { user: ServerUser }) {
  const update = useOptimisticUserUpdate(user.id);
  const [form, setForm] = useState({
    display_name: user.display_name ?? '',
    primary_email: user.primary_email ?? '',
    primary_email_verified: user.primary_email_verified,
    profile_image_url: user.profile_image_url ?? '',
  });
  const [saved, setSaved] = useState(false);
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const changes: ServerUserUpdate = {
      display_name: form.display_name.trim() || null,
      primary_email: form.primary_email.trim() || null,
      primary_email_verified: form.primary_email_verified,
      profile_image_url: form.profile_image_url.trim() || null,
    };
    update.mutate({ userId: user.id, data: changes }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Section title={t('user.profile')}>
      <form className="dash-form" onSubmit={submit}>
        <div className="dash-grid-2">
          <TextField
            label={t('users.displayName')}
            name="display_name"
            value={form.display_name}
            onChange={(event) => setForm({ ...form, display_name: event.target.value })}
          />
          <TextField
            label={t('user.primaryEmail')}
            name="primary_email"
            type="email"
            value={form.primary_email}
            onChange={(event) => setForm({ ...form, primary_email: event.target.value })}
          />
          <TextField
            label={t('user.profileImage')}
            name="profile_image_url"
            value={form.profile_image_url}
            onChange={(event) => setForm({ ...form, profile_image_url: event.target.value })}
          />
          <Checkbox
            label={t('user.primaryEmailVerified')}
            checked={form.primary_email_verified}
            onChange={(primary_email_verified) => setForm({ ...form, primary_email_verified })}
          />
        </div>
        <ErrorMessage error={update.error} />
        {saved ? (
          <p role="status" className="dash-success">
            {t('user.profileSaved')}
          </p>
        ) : null}
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={update.isPending}>
            {update.isPending ? t('auth.saving') : t('user.saveProfile')}
          </button>
        </div>
      </form>
    </Section>
  );
}

type MetadataField = 'client_metadata' | 'client_read_only_metadata' | 'server_metadata';

/** A JSON editor: the text is checked as JSON before it is sent; the server's answer replaces it. */
function MetadataEditor({ user, field, label }: { user: ServerUser; field: MetadataField; label: string }) {
  const update = useOptimisticUserUpdate(user.id);
  const [text, setText] = useState(() => JSON.stringify(user[field] ?? null, null, 2));
  const [invalid, setInvalid] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const id = `metadata-${field}`;
  const { t, language } = useDashboardTranslation();

  function save() {
    setSaved(false);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      setInvalid(t('user.notJson', { reason: (error as Error).message }));
      return;
    }
    setInvalid(null);
    update.mutate(
      { userId: user.id, data: { [field]: value } as ServerUserUpdate },
      {
        onSuccess: (saved) => {
          setText(JSON.stringify(saved[field] ?? null, null, 2));
          setSaved(true);
        },
      },
    );
  }

  return (
    <div className="dash-field dash-json">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={8}
        spellCheck={false}
        value={text}
        aria-invalid={invalid ? true : undefined}
        onChange={(event) => {
          setText(event.target.value);
          setSaved(false);
        }}
      />
      {invalid ? (
        <p role="alert" className="dash-error">
          {invalid}
        </p>
      ) : null}
      <ErrorMessage error={update.error} />
      {saved ? (
        <p role="status" className="dash-success">
          {t('user.metadataSaved', { label })}
        </p>
      ) : null}
      <div>
        <button type="button" onClick={save} disabled={update.isPending}>
          {/* English's label reads mid-sentence in lower case; other languages keep their nouns' case. */}
          {t('user.saveMetadata', { label: language === 'en' ? label.toLowerCase() : label })}
        </button>
      </div>
    </div>
  );
}

function ListSection<T>({
  title,
  query,
  empty,
  render,
}: {
  title: string;
  query: { data?: { items: T[] }; error: unknown; isPending: boolean };
  empty: string;
  render: (item: T) => React.ReactNode;
}) {
  const { t } = useDashboardTranslation();
  return (
    <Section title={title}>
      {query.isPending ? <p className="dash-muted">{t('common.loading')}</p> : null}
      <ErrorMessage error={query.error} />
      {query.data && query.data.items.length === 0 ? <p className="dash-muted">{empty}</p> : null}
      {query.data && query.data.items.length > 0 ? <ul className="dash-list">{query.data.items.map(render)}</ul> : null}
    </Section>
  );
}

/** Sessions, newest use first; revoking one removes it at once and puts it back if the server refuses. */
function Sessions({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const params = { user_id: userId };
  const key = api.getListSessionsQueryKey(params);
  const sessions = api.useListSessions(params, { request });
  const revoke = api.useDeleteSession({
    request,
    mutation: optimisticUpdate(queryClient, key, (list: SessionList, { sessionId }: { sessionId: string }) => ({
      ...list,
      items: list.items.filter((session) => session.id !== sessionId),
    })),
  });
  const { t, formatDate } = useDashboardTranslation();
  return (
    <Section title={t('user.sessions')}>
      {sessions.isPending ? <p className="dash-muted">{t('common.loading')}</p> : null}
      <ErrorMessage error={sessions.error ?? revoke.error} />
      {sessions.data?.items.length === 0 ? <p className="dash-muted">{t('user.noSessions')}</p> : null}
      <ul className="dash-list">
        {sessions.data?.items.map((session) => (
          <li key={session.id}>
            <span>
              {session.is_impersonation ? t('user.impersonationPrefix') : ''}
              {t('user.sessionTimes', { created: formatDate(session.created_at), lastUsed: formatDate(session.last_used_at) })}
              {session.last_used_at_end_user_ip_info ? t('user.sessionFrom', { ip: session.last_used_at_end_user_ip_info.ip }) : ''}
              {placeOfSession(session) ? ` (${placeOfSession(session)})` : ''}
              {deviceOfSession(session, t) ? ` · ${deviceOfSession(session, t)}` : ''}
            </span>
            <button
              type="button"
              className="gh-danger"
              onClick={() => revoke.mutate({ sessionId: session.id, params: { user_id: userId } })}
            >
              {t('user.revoke')}
            </button>
          </li>
        ))}
      </ul>
      {sessions.data?.items.some((session) => placeOfSession(session)) ? <IpPlaceAttribution /> : null}
    </Section>
  );
}

function Teams({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const teams = api.useListTeams({ user_id: userId }, { request });
  const { t } = useDashboardTranslation();
  return (
    <ListSection
      title={t('user.teams')}
      query={teams}
      empty={t('user.noTeams')}
      render={(team) => (
        <li key={team.id}>
          <span>{team.display_name}</span>
          <code className="dash-muted">{team.id}</code>
        </li>
      )}
    />
  );
}

function Permissions({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const permissions = api.useListProjectPermissions({ user_id: userId, recursive: 'true' }, { request });
  const { t } = useDashboardTranslation();
  return (
    <ListSection
      title={t('user.projectPermissions')}
      query={permissions}
      empty={t('user.noProjectPermissions')}
      render={(permission) => (
        <li key={permission.id}>
          <code>{permission.id}</code>
        </li>
      )}
    />
  );
}

/**
 * Creates an impersonation session (shown as such in the user's session list) and opens the app
 * with it: the session goes into the project's token cookies on this origin, where the app served
 * by the platform reads them, and the app opens in a new tab.
 */
