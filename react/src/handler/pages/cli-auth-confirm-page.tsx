import { useGatehouse } from '../../gatehouse-context.ts';
import { useCompleteCliLogin } from '../../generated/hooks.ts';
import { useUser } from '../../hooks/use-user.ts';
import { Card, RequestError } from '../../ui/form.tsx';
import { queryParam } from './query-param.ts';

/** A CLI waiting for a login: the signed-in user confirms it here and the CLI's next poll gets a session. */
export function CliAuthConfirmPage() {
  const { session } = useGatehouse();
  const user = useUser({ or: 'redirect' });
  const loginCode = queryParam('login_code');
  const complete = useCompleteCliLogin();
  if (!loginCode) {
    return (
      <Card title="Authorize the CLI">
        <p className="gh-error">This link is incomplete. Run the login command again.</p>
      </Card>
    );
  }
  if (complete.isSuccess) {
    return (
      <Card title="CLI authorized">
        <p className="gh-success" role="status">
          The CLI is signed in as {user.primary_email ?? user.display_name}. You can close this window and go back to your terminal.
        </p>
      </Card>
    );
  }
  const authorize = () => {
    const refreshToken = session.getTokens().refreshToken;
    if (refreshToken) complete.mutate({ data: { login_code: loginCode, mode: 'complete', refresh_token: refreshToken } });
  };
  return (
    <Card title="Authorize the CLI">
      <p>
        A command-line tool asks to sign in as <strong>{user.primary_email ?? user.display_name}</strong>. Only continue if you started it.
      </p>
      <RequestError error={complete.error} />
      <button type="button" className="gh-primary" disabled={complete.isPending} onClick={authorize}>
        Authorize
      </button>
    </Card>
  );
}
