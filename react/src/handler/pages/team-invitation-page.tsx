import { useEffect } from 'react';
import { useGatehouse } from '../../gatehouse-context.ts';
import {
  getGetCurrentUserQueryKey,
  getListTeamsQueryKey,
  useAcceptTeamInvitation,
  useGetTeamInvitationDetails,
} from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { myTeamsParams } from '../../hooks/use-teams.ts';
import { useUser } from '../../hooks/use-user.ts';
import { withReturnTo } from '../../navigation.ts';
import { Card, Loading, RequestError } from '../../ui/form.tsx';
import { Link } from '../../ui/link.tsx';
import { queryParam } from './query-param.ts';

/** An emailed team invitation: sign in (coming back here), see the team, join it. */
export function TeamInvitationPage() {
  const { urls } = useGatehouse();
  const code = queryParam('code');
  const user = useUser();
  const invalidate = useInvalidate();
  const details = useGetTeamInvitationDetails();
  const accept = useAcceptTeamInvitation({
    mutation: { onSuccess: invalidate(getListTeamsQueryKey(myTeamsParams), getGetCurrentUserQueryKey()) },
  });
  const { mutate: loadDetails } = details;
  useEffect(() => {
    if (code && user) loadDetails({ data: { code } });
  }, [code, user, loadDetails]);

  if (!code) {
    return (
      <Card title="Team invitation">
        <p className="gh-error">This link is incomplete. Open the link from the email again.</p>
      </Card>
    );
  }
  if (!user) {
    return (
      <Card title="Team invitation">
        <p>Sign in to see and accept this invitation.</p>
        <Link href={withReturnTo(urls.signIn, window.location.href)}>Sign in</Link>
      </Card>
    );
  }
  if (accept.isSuccess) {
    return (
      <Card title="Team invitation">
        <p className="gh-success" role="status">
          You joined {details.data?.team_display_name}.
        </p>
        <Link href={urls.home}>Continue</Link>
      </Card>
    );
  }
  if (details.isError) {
    return (
      <Card title="Team invitation">
        <RequestError error={details.error} />
      </Card>
    );
  }
  if (!details.data) return <Loading />;
  return (
    <Card title="Team invitation">
      <p>
        You are invited to join <strong>{details.data.team_display_name}</strong>.
      </p>
      <RequestError error={accept.error} />
      <button type="button" className="gh-primary" disabled={accept.isPending} onClick={() => accept.mutate({ data: { code } })}>
        Join {details.data.team_display_name}
      </button>
    </Card>
  );
}
