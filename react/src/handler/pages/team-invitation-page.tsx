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
import { useTranslation } from '../../i18n/i18n-context.ts';

/** An emailed team invitation: sign in (coming back here), see the team, join it. */
export function TeamInvitationPage() {
  const { urls } = useGatehouse();
  const { t } = useTranslation();
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
      <Card title={t('invitation.title')}>
        <p className="gh-error">{t('common.linkIncomplete')}</p>
      </Card>
    );
  }
  if (!user) {
    return (
      <Card title={t('invitation.title')}>
        <p>{t('invitation.signInFirst')}</p>
        <Link href={withReturnTo(urls.signIn, window.location.href)}>{t('common.signIn')}</Link>
      </Card>
    );
  }
  if (accept.isSuccess) {
    return (
      <Card title={t('invitation.title')}>
        <p className="gh-success" role="status">
          {t('invitation.joined', { team: details.data?.team_display_name })}
        </p>
        <Link href={urls.home}>{t('common.continue')}</Link>
      </Card>
    );
  }
  if (details.isError) {
    return (
      <Card title={t('invitation.title')}>
        <RequestError error={details.error} />
      </Card>
    );
  }
  if (!details.data) return <Loading />;
  return (
    <Card title={t('invitation.title')}>
      <p>{t('invitation.invited', { team: details.data.team_display_name })}</p>
      <RequestError error={accept.error} />
      <button type="button" className="gh-primary" disabled={accept.isPending} onClick={() => accept.mutate({ data: { code } })}>
        {t('invitation.join', { team: details.data.team_display_name })}
      </button>
    </Card>
  );
}
