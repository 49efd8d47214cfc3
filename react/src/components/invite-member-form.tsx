import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../absolute-url.ts';
import { useGatehouse } from '../gatehouse-context.ts';
import { getListTeamInvitationsQueryKey, useSendTeamInvitation } from '../generated/hooks.ts';
import { useInvalidate } from '../hooks/invalidate.ts';
import { Field, RequestError, SubmitButton, useValidate } from '../ui/form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

/** Emails an invitation to join a team (for members holding `$invite_members`). */
export function InviteMemberForm({ teamId, teamName }: { teamId: string; teamName: string }) {
  const { urls } = useGatehouse();
  const invalidate = useInvalidate();
  const validate = useValidate();
  const { t } = useTranslation();
  const invite = useSendTeamInvitation({ mutation: { onSuccess: invalidate(getListTeamInvitationsQueryKey({ team_id: teamId })) } });
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [sentTo, setSentTo] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validate.email(email);
    setError(invalid);
    if (invalid) return;
    const address = email.trim();
    invite.mutate(
      { data: { team_id: teamId, email: address, callback_url: absoluteUrl(urls.teamInvitation) } },
      {
        onSuccess: () => {
          setSentTo(address);
          setEmail('');
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('team.inviteAria', { team: teamName })}>
      <Field
        label={t('team.inviteTo', { team: teamName })}
        name="invite-email"
        type="email"
        placeholder="colleague@example.com"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error}
      />
      {sentTo ? (
        <p className="gh-success" role="status">
          {t('team.invitationSent', { email: sentTo })}
        </p>
      ) : null}
      <RequestError error={invite.error} />
      <SubmitButton pending={invite.isPending}>{t('team.sendInvitation')}</SubmitButton>
    </form>
  );
}
