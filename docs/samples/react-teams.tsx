// #region teams
import { SelectedTeamSwitcher, usePermission, useTeams, useUser } from '@gatehouse/react';

export function TeamPage() {
  const user = useUser({ or: 'redirect' });
  const teams = useTeams();
  const selected = user.selected_team_id;
  // Effective permissions: granted directly or through a permission that contains it.
  const canInvite = usePermission(selected ?? '', '$invite_members');
  return (
    <section>
      <SelectedTeamSwitcher />
      <p>You belong to {teams.length} teams.</p>
      {canInvite ? <a href="/handler/account-settings">Invite members</a> : null}
    </section>
  );
}
// #endregion teams
