import { getListSessionsQueryKey, useDeleteSession } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { mySessionsParams, useSessions } from '../../hooks/use-sessions.ts';
import { RequestError } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';
import { intlLocaleOf } from '../../i18n/language-formats.ts';

export function SessionsSection() {
  const sessions = useSessions();
  const { t, language } = useTranslation();
  // Dates in the user's language (the pseudo-locale's are English's).
  const dates = new Intl.DateTimeFormat(intlLocaleOf(language), { dateStyle: 'medium', timeStyle: 'short' });
  const invalidate = useInvalidate();
  const revoke = useDeleteSession({ mutation: { onSuccess: invalidate(getListSessionsQueryKey(mySessionsParams)) } });
  return (
    <section aria-labelledby="gh-sessions">
      <h2 id="gh-sessions">{t('sessions.title')}</h2>
      <ul className="gh-list">
        {sessions.map((session) => (
          <li key={session.id}>
            <span>
              {session.last_used_at_end_user_ip_info?.ip
                ? t('sessions.signedInFrom', { when: dates.format(session.created_at), ip: session.last_used_at_end_user_ip_info.ip })
                : t('sessions.signedIn', { when: dates.format(session.created_at) })}
              {session.is_impersonation ? ` ${t('sessions.impersonation')}` : ''}
              {' · '}
              <span className="gh-muted">{t('sessions.lastUsed', { when: dates.format(session.last_used_at) })}</span>
            </span>
            {session.is_current_session ? (
              <strong>{t('sessions.thisDevice')}</strong>
            ) : (
              <button
                type="button"
                className="gh-danger"
                onClick={() => revoke.mutate({ sessionId: session.id, params: mySessionsParams })}
              >
                {t('sessions.signOut')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <RequestError error={revoke.error} />
    </section>
  );
}
