import { ApiHttpError } from '@gatehouse/client';
import { api, type TeamApiKey, type UserApiKey } from '@gatehouse/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, QueryState, Section, TextField } from '../ui.tsx';

/**
 * The server's answer when the project has the feature off ("User API keys are not enabled for this project.",
 * a plain 400): a setting, not a failure, so it is shown as a plain note; null for any other error.
 */
export function keysNotEnabled(error: unknown): string | null {
  return error instanceof ApiHttpError &&
    error.status === 400 &&
    /^(User|Team) API keys are not enabled for this project\.$/.test(error.message)
    ? error.message
    : null;
}

/** A key's state in a word or two: revoked, expired, or until when it is valid (dates as ISO, the same in every language). */
export function keyStatus(key: { manually_revoked_at_millis?: number; expires_at_millis?: number }, t: Translate): string {
  if (key.manually_revoked_at_millis) return t('keys.revokedAt', { when: formatDate(key.manually_revoked_at_millis) });
  if (key.expires_at_millis !== undefined && key.expires_at_millis < Date.now()) return t('keys.expired');
  return key.expires_at_millis !== undefined ? t('keys.validUntil', { when: formatDate(key.expires_at_millis) }) : t('keys.neverExpires');
}

/** Whose API keys: a user's (`/user-api-keys?user_id=`) or a team's (`/team-api-keys?team_id=`). */
export type KeyOwner = { kind: 'user' | 'team'; id: string };

type EndUserApiKey = UserApiKey | TeamApiKey;

/** The generated calls of one owner kind behind one shape: the list's query key (the generated hook's), list, create, revoke. */
type KeyCalls = {
  queryKey: readonly unknown[];
  list: (signal: AbortSignal) => Promise<{ items: EndUserApiKey[] }>;
  create: (description: string) => Promise<{ value: string }>;
  revoke: (apiKeyId: string) => Promise<unknown>;
};

function keyCalls(owner: KeyOwner, request: RequestInit): KeyCalls {
  if (owner.kind === 'user') {
    const params = { user_id: owner.id };
    return {
      queryKey: api.getListUserApiKeysQueryKey(params),
      list: (signal) => api.listUserApiKeys(params, { ...request, signal }),
      create: (description) => api.createUserApiKey({ ...params, description }, request),
      revoke: (apiKeyId) => api.updateUserApiKey(apiKeyId, { revoked: true }, params, request),
    };
  }
  const params = { team_id: owner.id };
  return {
    queryKey: api.getListTeamApiKeysQueryKey(params),
    list: (signal) => api.listTeamApiKeys(params, { ...request, signal }),
    create: (description) => api.createTeamApiKey({ ...params, description }, request),
    revoke: (apiKeyId) => api.updateTeamApiKey(apiKeyId, { revoked: true }, params, request),
  };
}

/**
 * A user's or a team's API keys: listed by their last four characters, created (the full value shown this once, with
 * a copy button), revoked behind a confirmation; the feature turned off for the project is a plain note.
 */
export function EndUserApiKeys({ owner }: { owner: KeyOwner }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const calls = keyCalls(owner, request);
  const keys = useQuery({ queryKey: calls.queryKey, queryFn: ({ signal }) => calls.list(signal) });
  const create = useMutation({ mutationFn: calls.create });
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const { t } = useDashboardTranslation();
  // The server's note is English on the wire; the owner reads it in the dashboard's language.
  const offNote = owner.kind === 'user' ? t('keys.userOff') : t('keys.teamOff');
  const off = keysNotEnabled(keys.error) ? offNote : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(description.trim(), {
      onSuccess: (apiKey) => {
        setCreated(apiKey.value);
        setDescription('');
        void queryClient.invalidateQueries({ queryKey: calls.queryKey });
      },
      // Turned off meanwhile: the list, asked again, says so.
      onError: (error) => {
        if (keysNotEnabled(error)) void queryClient.invalidateQueries({ queryKey: calls.queryKey });
      },
    });
  }

  return (
    <Section
      title={t('keys.title')}
      description={off ? undefined : owner.kind === 'user' ? t('keys.userDescription') : t('keys.teamDescription')}
    >
      {off ? (
        <p className="dash-muted">{off}</p>
      ) : (
        <QueryState query={keys} what={owner.kind === 'user' ? t('keys.userWhat') : t('keys.teamWhat')}>
          <form
            className="dash-row dash-toolbar"
            onSubmit={submit}
            aria-label={owner.kind === 'user' ? t('keys.createUser') : t('keys.createTeam')}
          >
            <TextField
              label={t('keys.description')}
              name={`${owner.kind}-key-description`}
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
            <button type="submit" disabled={create.isPending || !description.trim()}>
              {create.isPending ? t('newProject.creating') : t('keys.create')}
            </button>
          </form>
          {keysNotEnabled(create.error) ? <p className="dash-muted">{offNote}</p> : <ErrorMessage error={create.error} />}
          {created ? (
            <section className="dash-panel dash-created-keys" aria-label={owner.kind === 'user' ? t('keys.newUser') : t('keys.newTeam')}>
              <h3>{t('keys.copyNow')}</h3>
              <p>{t('keys.shownOnce')}</p>
              <code>{created}</code>
              <div className="dash-row">
                <CopyButton value={created} label={t('keys.copyLabel')} />
                <button type="button" onClick={() => setCreated(null)}>
                  {t('keys.copied')}
                </button>
              </div>
            </section>
          ) : null}
          {keys.data?.items.length === 0 ? <p className="dash-muted">{t('keys.none')}</p> : null}
          <ul className="dash-list" aria-label={owner.kind === 'user' ? t('keys.userList') : t('keys.teamList')}>
            {keys.data?.items.map((apiKey) => (
              <KeyRow key={apiKey.id} calls={calls} apiKey={apiKey} />
            ))}
          </ul>
        </QueryState>
      )}
    </Section>
  );
}

function KeyRow({ calls, apiKey }: { calls: KeyCalls; apiKey: EndUserApiKey }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({ mutationFn: calls.revoke });
  const [open, setOpen] = useState(false);
  const { t } = useDashboardTranslation();
  const name = apiKey.description || t('keys.apiKey');
  const active = !apiKey.manually_revoked_at_millis && (apiKey.expires_at_millis === undefined || apiKey.expires_at_millis >= Date.now());
  return (
    <li>
      <span>
        <strong>{name}</strong> <span className="dash-muted">…{apiKey.value.last_four}</span>
        <br />
        <span className="dash-muted">
          {t('keys.createdAt', { when: formatDate(apiKey.created_at_millis) })} · {keyStatus(apiKey, t)}
        </span>
      </span>
      {active ? (
        <button type="button" className="gh-danger" onClick={() => setOpen(true)} aria-label={t('keys.revokeLabel', { name })}>
          {t('keys.revoke')}
        </button>
      ) : null}
      <ConfirmDialog
        open={open}
        title={t('keys.revokeTitle')}
        confirmLabel={t('keys.revokeKey')}
        busy={revoke.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          revoke.mutate(apiKey.id, {
            onSuccess: async () => {
              await queryClient.invalidateQueries({ queryKey: calls.queryKey });
              setOpen(false);
            },
          })
        }
      >
        <p>{t('keys.revokeWarning', { name })}</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </li>
  );
}
