import { api, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { EndUserApiKeys } from './end-user-api-keys.tsx';
import { TeamDomains } from './team-domains.tsx';
import { Members } from './team-members.tsx';
import { ScimDirectories } from './team-scim.tsx';
import { SsoConnections } from './team-sso.tsx';
import { SsoSetupLinks } from './team-sso-setup-links.tsx';

/**
 * One team: rename and delete, members (add by email or id, remove), each member's permissions, invitations, API keys,
 * and its enterprise set-up: SSO connections, verified domains, SCIM directories.
 */
export function TeamPage({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const { data: team } = api.useGetTeamSuspense(teamId, { request });
  return (
    <>
      <PageHeader title={team.display_name}>
        <DeleteTeamButton teamId={teamId} name={team.display_name} />
      </PageHeader>
      <p className="dash-muted">
        <code>{team.id}</code>
      </p>
      <RenameTeam key={team.display_name} teamId={teamId} name={team.display_name} />
      <Members teamId={teamId} />
      <Invitations teamId={teamId} />
      <EndUserApiKeys owner={{ kind: 'team', id: teamId }} />
      <SsoConnections teamId={teamId} />
      <TeamDomains teamId={teamId} />
      <ScimDirectories teamId={teamId} />
      <SsoSetupLinks teamId={teamId} />
    </>
  );
}

function RenameTeam({ teamId, name }: { teamId: string; name: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const update = api.useUpdateTeam({ request });
  const [value, setValue] = useState(name);
  const { t } = useDashboardTranslation();
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { teamId, data: { display_name: value.trim() } },
      { onSuccess: (team) => queryClient.setQueryData(api.getGetTeamQueryKey(teamId), team) },
    );
  }
  return (
    <Section title={t('team.team')}>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label={t('team.name')} name="team-name" value={value} onChange={(event) => setValue(event.target.value)} />
        <button type="submit" disabled={update.isPending}>
          {t('team.rename')}
        </button>
      </form>
      <ErrorMessage error={update.error} />
    </Section>
  );
}

function Invitations({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListTeamInvitationsQueryKey({ team_id: teamId });
  const invitations = api.useListTeamInvitations({ team_id: teamId }, { request });
  const send = api.useSendTeamInvitation({ request });
  const revoke = api.useDeleteTeamInvitation({ request });
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { t, formatDate } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    setSent(false);
    send.mutate(
      { data: { team_id: teamId, email: email.trim(), callback_url: `${window.location.origin}/handler/team-invitation` } },
      {
        onSuccess: () => {
          setEmail('');
          setSent(true);
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section title={t('team.invitations')} description={t('team.invitationsDescription')}>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label={t('team.inviteByEmail')}
          name="invite"
          type="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <button type="submit" disabled={send.isPending || !email.trim()}>
          {t('team.sendInvitation')}
        </button>
      </form>
      <ErrorMessage error={send.error ?? revoke.error ?? invitations.error} />
      {sent ? (
        <p role="status" className="dash-success">
          {t('team.invitationSent')}
        </p>
      ) : null}
      {invitations.data?.items.length === 0 ? <p className="dash-muted">{t('team.noInvitations')}</p> : null}
      <ul className="dash-list">
        {invitations.data?.items.map((invitation) => (
          <li key={invitation.id}>
            <span>
              {invitation.recipient_email}{' '}
              <span className="dash-muted">{t('team.expires', { when: formatDate(invitation.expires_at_millis) })}</span>
            </span>
            <button
              type="button"
              className="gh-danger"
              onClick={() =>
                revoke.mutate(
                  { invitationId: invitation.id, params: { team_id: teamId } },
                  { onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) },
                )
              }
            >
              {t('team.revoke')}
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function DeleteTeamButton({ teamId, name }: { teamId: string; name: string }) {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const remove = api.useDeleteTeam({ request });
  const [open, setOpen] = useState(false);
  const { t } = useDashboardTranslation();
  return (
    <>
      <button type="button" className="gh-danger" onClick={() => setOpen(true)}>
        {t('team.delete')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('team.deleteTitle', { name })}
        confirmLabel={t('team.delete')}
        busy={remove.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          remove.mutate(
            { teamId },
            {
              onSuccess: async () => {
                setOpen(false);
                await queryClient.invalidateQueries({ queryKey: [api.getListTeamsQueryKey()[0]] });
                gatehouse.navigate(paths.project(projectId, 'teams'));
              },
            },
          )
        }
      >
        <p>{t('team.deleteWarning')}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
