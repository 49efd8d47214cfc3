import { api } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
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
    <form className="dash-row dash-toolbar" onSubmit={submit} aria-label="Send a test email">
      <TextField
        label="Test email recipient"
        name="test-recipient"
        type="email"
        required
        value={recipient}
        onChange={(event) => setRecipient(event.target.value)}
      />
      <button type="submit" disabled={send.isPending || !recipient.trim()}>
        {send.isPending ? 'Sending…' : 'Send test email'}
      </button>
      {send.data?.success ? (
        <span role="status" className="dash-success">
          The server took the test email for {send.variables?.data.recipient_email}.
        </span>
      ) : null}
      {send.data && !send.data.success ? (
        <span role="alert" className="dash-error">
          The server refused it: {send.data.error_message ?? 'no reason given'}
        </span>
      ) : null}
      <ErrorMessage error={send.error} />
    </form>
  );
}
