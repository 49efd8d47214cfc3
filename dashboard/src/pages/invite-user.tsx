import { api } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, TextField } from '../ui.tsx';

/**
 * Invites someone by email to sign in or up (the project's sign-in invitation email, linking to a
 * page of the app on a trusted domain); nothing is created until they do.
 */
export function InviteUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { request } = useProjectScope();
  const invite = api.useSendSignInInvitation({ request });
  const [form, setForm] = useState({ email: '', callbackUrl: '' });
  const { t } = useDashboardTranslation();
  const close = () => {
    invite.reset();
    setForm({ email: '', callbackUrl: '' });
    onClose();
  };
  function submit(event?: FormEvent) {
    event?.preventDefault();
    invite.mutate({ data: { email: form.email.trim(), callback_url: form.callbackUrl.trim() } });
  }
  return (
    <ConfirmDialog
      open={open}
      title={t('users.inviteTitle')}
      confirmLabel={t('users.sendInvitation')}
      tone="primary"
      busy={invite.isPending}
      canConfirm={Boolean(form.email.trim() && form.callbackUrl.trim())}
      onConfirm={() => submit()}
      onClose={close}
    >
      <form className="dash-form" onSubmit={submit}>
        <TextField
          label={t('users.inviteeEmail')}
          name="invite-email"
          type="email"
          value={form.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
        <TextField
          label={t('users.linkTo')}
          name="invite-callback"
          type="url"
          hint={t('users.linkToHint')}
          value={form.callbackUrl}
          onChange={(event) => setForm({ ...form, callbackUrl: event.target.value })}
        />
        {invite.isSuccess ? (
          <p role="status" className="dash-success">
            {t('users.invitationSent', { email: invite.variables?.data.email })}
          </p>
        ) : null}
        <ErrorMessage error={invite.error} />
      </form>
    </ConfirmDialog>
  );
}
