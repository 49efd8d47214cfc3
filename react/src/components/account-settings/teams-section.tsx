import { getGetCurrentUserQueryKey, getListTeamsQueryKey, useDeleteTeamMembership } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { useProject } from '../../hooks/use-project.ts';
import { myTeamsParams, useTeams } from '../../hooks/use-teams.ts';
import { RequestError } from '../../ui/form.tsx';
import { CreateTeamForm } from '../create-team-form.tsx';

export function TeamsSection() {
  const teams = useTeams();
  const { config } = useProject();
  const invalidate = useInvalidate();
  const leave = useDeleteTeamMembership({
    mutation: { onSuccess: invalidate(getListTeamsQueryKey(myTeamsParams), getGetCurrentUserQueryKey()) },
  });
  return (
    <section aria-labelledby="gh-teams">
      <h2 id="gh-teams">Teams</h2>
      {teams.length === 0 ? <p className="gh-muted">You are not in any team yet.</p> : null}
      <ul className="gh-list">
        {teams.map((team) => (
          <li key={team.id}>
            <span>{team.display_name}</span>
            <button type="button" className="gh-danger" onClick={() => leave.mutate({ teamId: team.id, userId: 'me' })}>
              Leave
            </button>
          </li>
        ))}
      </ul>
      <RequestError error={leave.error} />
      {config.client_team_creation_enabled ? <CreateTeamForm /> : null}
    </section>
  );
}
