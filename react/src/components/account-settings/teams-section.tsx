import { lazy, Suspense, useState } from 'react';
import type { TeamView } from '../../generated/hooks.schemas.ts';
import { getGetCurrentUserQueryKey, getListTeamsQueryKey, useDeleteTeamMembership } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { usePermission } from '../../hooks/use-permission.ts';
import { useProject } from '../../hooks/use-project.ts';
import { myTeamsParams, useTeams } from '../../hooks/use-teams.ts';
import { Loading, RequestError } from '../../ui/form.tsx';
import { CreateTeamForm } from '../create-team-form.tsx';
import { InviteMemberForm } from '../invite-member-form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

// Loaded when opened: only a team's administrators read its audit log.
const TeamAuditLog = lazy(async () => ({ default: (await import('./team-audit-log.tsx')).TeamAuditLog }));

export function TeamsSection() {
  const teams = useTeams();
  const { config } = useProject();
  const { t } = useTranslation();
  return (
    <section aria-labelledby="gh-teams">
      <h2 id="gh-teams">{t('account.tabTeams')}</h2>
      {teams.length === 0 ? <p className="gh-muted">{t('teams.none')}</p> : null}
      <ul className="gh-list" aria-label={t('teams.yours')}>
        {teams.map((team) => (
          <TeamRow key={team.id} team={team} />
        ))}
      </ul>
      {config.client_team_creation_enabled ? <CreateTeamForm /> : null}
    </section>
  );
}

function TeamRow({ team }: { team: TeamView }) {
  const invalidate = useInvalidate();
  const { t } = useTranslation();
  const leave = useDeleteTeamMembership({
    mutation: { onSuccess: invalidate(getListTeamsQueryKey(myTeamsParams), getGetCurrentUserQueryKey()) },
  });
  return (
    <li className="gh-stack">
      <div className="gh-row">
        <strong>{team.display_name}</strong>
        <button type="button" className="gh-danger" onClick={() => leave.mutate({ teamId: team.id, userId: 'me' })}>
          {t('teams.leave')}
        </button>
      </div>
      <RequestError error={leave.error} />
      <Suspense fallback={null}>
        <InviteIfAllowed team={team} />
      </Suspense>
      <Suspense fallback={null}>
        <AuditLogIfAllowed team={team} />
      </Suspense>
    </li>
  );
}

/** Only members who may invite see the invitation form. */
function InviteIfAllowed({ team }: { team: TeamView }) {
  const canInvite = usePermission(team, '$invite_members');
  return canInvite ? <InviteMemberForm teamId={team.id} teamName={team.display_name} /> : null;
}

/** Only members who administer the team (`$update_team`, as the API requires) see its audit log. */
function AuditLogIfAllowed({ team }: { team: TeamView }) {
  const canAudit = usePermission(team, '$update_team');
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  if (!canAudit) return null;
  return (
    <div className="gh-stack" style={{ alignSelf: 'stretch' }}>
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t('teamAuditLog.show', { team: team.display_name })}
      </button>
      {open ? (
        <Suspense fallback={<Loading />}>
          <TeamAuditLog teamId={team.id} teamName={team.display_name} />
        </Suspense>
      ) : null}
    </div>
  );
}
