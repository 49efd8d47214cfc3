import { useEffect } from 'react';
import { getGetOAuthConsentRequestQueryKey, useCompleteOAuthConsentRequest, useGetOAuthConsentRequest } from '../../generated/hooks.ts';
import { useUser } from '../../hooks/use-user.ts';
import { Card, Loading, RequestError } from '../../ui/form.tsx';
import { queryParam } from './query-param.ts';

/**
 * The consent step of the project as an OpenID provider: an application asks to act for the signed-in user (who
 * signs in first and comes back here); the user allows or denies, and the browser returns to the provider, which
 * sends it on to the application. A request the user already allowed for that application is answered at once.
 */
export function OAuthConsentPage() {
  const user = useUser({ or: 'redirect' });
  const interaction = queryParam('interaction') ?? '';
  const request = useGetOAuthConsentRequest(interaction, {
    query: { enabled: interaction !== '', queryKey: getGetOAuthConsentRequestQueryKey(interaction) },
  });
  const answer = useCompleteOAuthConsentRequest({
    mutation: { onSuccess: (next: { redirect_to: string }) => window.location.assign(next.redirect_to) },
  });
  const remembered = request.data?.remembered === true;
  const { mutate } = answer;
  useEffect(() => {
    if (remembered) mutate({ interactionId: interaction, data: { allow: true } });
  }, [remembered, interaction, mutate]);

  if (!interaction) {
    return (
      <Card title="Authorize an application">
        <p className="gh-error">This link is incomplete. Start again from the application.</p>
      </Card>
    );
  }
  if (request.isError) {
    return (
      <Card title="Authorize an application">
        <RequestError error={request.error} />
      </Card>
    );
  }
  if (!request.data || remembered || answer.isSuccess) return <Loading label="Returning to the application…" />;
  const { application_name: name, logo_url: logo, scopes } = request.data;
  return (
    <Card title={`Authorize ${name}`}>
      {logo ? <img src={logo} alt="" width={48} height={48} /> : null}
      <p>
        <strong>{name}</strong> asks to use your account <strong>{user.primary_email ?? user.display_name}</strong>. It will be able to:
      </p>
      <ul aria-label="What the application asks for">
        {scopes.map((scope) => (
          <li key={scope.name}>{scope.description}</li>
        ))}
      </ul>
      <p>You can revoke this later. Only allow applications you trust.</p>
      <RequestError error={answer.error} />
      <div className="gh-actions">
        <button
          type="button"
          className="gh-primary"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ interactionId: interaction, data: { allow: true } })}
        >
          Allow
        </button>
        <button
          type="button"
          disabled={answer.isPending}
          onClick={() => answer.mutate({ interactionId: interaction, data: { allow: false } })}
        >
          Deny
        </button>
      </div>
    </Card>
  );
}
