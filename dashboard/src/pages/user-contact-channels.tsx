import { api, type ContactChannel } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, QueryState, Section, TextField } from '../ui.tsx';

/**
 * A user's contact channels: added (used for sign-in or not), marked primary or used for sign-in, deleted
 * behind a confirmation, sent a verification code (to the app's email-verification page); each of the
 * server's refusals shown with its message.
 */
export function ContactChannels({ userId }: { userId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListContactChannelsQueryKey({ user_id: userId });
  const channels = api.useListContactChannels({ user_id: userId }, { request });
  const create = api.useCreateContactChannel({ request });
  const [email, setEmail] = useState('');
  const [usedForAuth, setUsedForAuth] = useState(false);
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { data: { user_id: userId, type: 'email', value: email.trim(), used_for_auth: usedForAuth } },
      {
        onSuccess: () => {
          setEmail('');
          setUsedForAuth(false);
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section title={t('channels.title')}>
      <QueryState query={channels} what={t('channels.what')}>
        {channels.data?.items.length === 0 ? <p className="dash-muted">{t('channels.none')}</p> : null}
        <ul className="dash-list" aria-label={t('channels.title')}>
          {channels.data?.items.map((channel) => (
            <ChannelRow key={channel.id} channel={channel} />
          ))}
        </ul>
      </QueryState>
      <form className="dash-row dash-toolbar" onSubmit={submit} aria-label={t('channels.addLabel')}>
        <TextField
          label={t('channels.newEmail')}
          name="contact-email"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <Checkbox label={t('channels.usedForSignIn')} checked={usedForAuth} onChange={setUsedForAuth} />
        <button type="submit" disabled={create.isPending || !email.trim()}>
          {create.isPending ? t('channels.adding') : t('channels.addEmail')}
        </button>
      </form>
      <ErrorMessage error={create.error} />
    </Section>
  );
}

function ChannelRow({ channel }: { channel: ContactChannel }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListContactChannelsQueryKey({ user_id: channel.user_id });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const update = api.useUpdateContactChannel({ request, mutation: { onSuccess: refresh } });
  const remove = api.useDeleteContactChannel({ request });
  const send = api.useSendContactChannelVerificationCode({ request });
  const [confirming, setConfirming] = useState(false);
  const ids = { userId: channel.user_id, contactChannelId: channel.id };
  const busy = update.isPending || remove.isPending || send.isPending;
  const { t } = useDashboardTranslation();
  return (
    <li className="dash-stack">
      <span>
        <strong>{channel.value}</strong>{' '}
        <span className="dash-muted">
          {[
            channel.is_primary ? t('channels.primary') : null,
            channel.is_verified ? t('channels.verified') : t('users.unverified'),
            channel.used_for_auth ? t('channels.usedForSignInLower') : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </span>
      <span className="dash-row">
        {channel.is_primary ? null : (
          <button type="button" disabled={busy} onClick={() => update.mutate({ ...ids, data: { is_primary: true } })}>
            {t('channels.makePrimary')}
          </button>
        )}
        <button type="button" disabled={busy} onClick={() => update.mutate({ ...ids, data: { used_for_auth: !channel.used_for_auth } })}>
          {channel.used_for_auth ? t('channels.stopSignIn') : t('channels.useSignIn')}
        </button>
        <button
          type="button"
          disabled={busy}
          onClick={() => send.mutate({ ...ids, data: { callback_url: `${window.location.origin}/handler/email-verification` } })}
        >
          {send.isPending ? t('channels.sending') : t('channels.sendCode')}
        </button>
        <button type="button" className="gh-danger" disabled={busy} onClick={() => setConfirming(true)}>
          {t('channels.delete')}
        </button>
      </span>
      {send.isSuccess ? (
        <p role="status" className="dash-success">
          {t('channels.sent', { value: channel.value })}
        </p>
      ) : null}
      <ErrorMessage error={update.error ?? send.error} />
      <ConfirmDialog
        open={confirming}
        title={t('channels.deleteTitle')}
        confirmLabel={t('channels.deleteConfirm')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(ids, {
            onSuccess: async () => {
              await refresh();
              setConfirming(false);
            },
          })
        }
      >
        <p>{t('channels.deleteWarning', { value: channel.value })}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </li>
  );
}
