import { useId, useState } from 'react';
import { useProject } from '../hooks/use-project.ts';
import { useSelectTeam } from '../hooks/use-select-team.ts';
import { useTeams } from '../hooks/use-teams.ts';
import { useUser } from '../hooks/use-user.ts';
import { RequestError } from '../ui/form.tsx';
import { CreateTeamForm } from './create-team-form.tsx';
import { useTranslation } from '../i18n/i18n-context.ts';

const createOption = '__create__';

/** Picks the user's selected team among their teams, or creates one (when the project allows it). */
export function SelectedTeamSwitcher() {
  const id = useId();
  const user = useUser();
  const teams = useTeams();
  const { t } = useTranslation();
  const { config } = useProject();
  const { selectTeam, isPending, error } = useSelectTeam();
  const [creating, setCreating] = useState(false);
  if (!user) return null;

  const choose = (value: string) => {
    if (value === createOption) setCreating(true);
    else void selectTeam(value || null).catch(() => undefined);
  };

  return (
    <div className="gh gh-stack">
      <label htmlFor={id}>{t('team.switcherLabel')}</label>
      <select
        id={id}
        value={user.selected_team_id ?? ''}
        onChange={(event) => choose(event.target.value)}
        disabled={isPending}
        aria-busy={isPending}
      >
        <option value="">{t('team.noneSelected')}</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.display_name}
          </option>
        ))}
        {config.client_team_creation_enabled ? <option value={createOption}>{t('team.createOption')}</option> : null}
      </select>
      <RequestError error={error} />
      {creating ? <CreateTeamForm onCreated={() => setCreating(false)} /> : null}
    </div>
  );
}
