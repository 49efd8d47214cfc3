import { getListSessionsQueryKey, useDeleteSession } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { mySessionsParams, useSessions } from '../../hooks/use-sessions.ts';
import { RequestError } from '../../ui/form.tsx';

export function SessionsSection() {
  const sessions = useSessions();
  const invalidate = useInvalidate();
  const revoke = useDeleteSession({ mutation: { onSuccess: invalidate(getListSessionsQueryKey(mySessionsParams)) } });
  return (
    <section aria-labelledby="gh-sessions">
      <h2 id="gh-sessions">Active sessions</h2>
      <ul className="gh-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <span>
              Signed in {new Date(session.created_at).toLocaleString()}
              {session.last_used_at_end_user_ip_info?.ip ? ` from ${session.last_used_at_end_user_ip_info.ip}` : ''}
              {session.is_impersonation ? ' (impersonation)' : ''}
              {' · '}
              <span className="gh-muted">last used {new Date(session.last_used_at).toLocaleString()}</span>
            </span>
            {session.is_current_session ? (
              <strong>This device</strong>
            ) : (
              <button
                type="button"
                className="gh-danger"
                onClick={() => revoke.mutate({ sessionId: session.id, params: mySessionsParams })}
              >
                Sign out
              </button>
            )}
          </li>
        ))}
      </ul>
      <RequestError error={revoke.error} />
    </section>
  );
}
