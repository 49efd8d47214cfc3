import { api } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, TextField } from '../ui.tsx';

export type SmtpFields = { host: string; port: string; username: string; password: string; sender_name: string; sender_email: string };

/**
 * Sends a test email through the SMTP server as typed in the form (saved or not), and says whether
 * the server took it or what it answered.
 */
export function SmtpTestEmail({ server }: { server: SmtpFields }) {
  const { request } = useProjectScope();
  const send = api.useSendTestEmail({ request });
  const [recipient, setRecipient] = useState('');
  const { t } = useDashboardTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    send.mutate({
      data: {
        recipient_email: recipient.trim(),
        email_config: {
          host: server.host.trim(),
          port: Number(server.port),
          username: server.username,
          password: server.password,
          sender_name: server.sender_name.trim(),
          sender_email: server.sender_email.trim(),
        },
      },
    });
  }
  return (
    <form className="dash-row dash-toolbar" onSubmit={submit} aria-label={t('emailServer.testForm')}>
      <TextField
        label={t('emailServer.testRecipient')}
        name="test-recipient"
        type="email"
        required
        value={recipient}
        onChange={(event) => setRecipient(event.target.value)}
      />
      <button type="submit" disabled={send.isPending || !recipient.trim()}>
        {send.isPending ? t('webhooks.sending') : t('emailServer.sendTest')}
      </button>
      {send.data?.success ? (
        <span role="status" className="dash-success">
          {t('emailServer.testTaken', { recipient: send.variables?.data.recipient_email ?? '' })}
        </span>
      ) : null}
      {send.data && !send.data.success ? (
        <span role="alert" className="dash-error">
          {t('emailServer.testRefused', { reason: send.data.error_message ?? t('emailServer.noReason') })}
        </span>
      ) : null}
      <ErrorMessage error={send.error} />
    </form>
  );
}
