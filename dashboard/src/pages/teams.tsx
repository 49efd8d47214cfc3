import { api, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

/** The project's teams, and a form to create one (with no creator: members are added on its page). */
export function TeamsPage() {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const { data } = api.useListTeamsSuspense(undefined, { request });
  const create = api.useCreateTeam({ request });
  const [name, setName] = useState('');
  const { t, formatDate } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { data: { display_name: name.trim() } },
      {
        onSuccess: async (team) => {
          await queryClient.invalidateQueries({ queryKey: [api.getListTeamsQueryKey()[0]] });
          gatehouse.navigate(paths.project(projectId, 'teams', team.id));
        },
      },
    );
  }

  return (
    <>
      <PageHeader title={t('nav.teams')} />
      <Section title={t('teams.create')}>
        <form className="dash-row dash-toolbar" onSubmit={submit}>
          <TextField label={t('teams.name')} name="team-name" value={name} onChange={(event) => setName(event.target.value)} />
          <button type="submit" className="gh-primary" disabled={create.isPending || !name.trim()}>
            {create.isPending ? t('newProject.creating') : t('teams.createButton')}
          </button>
        </form>
        <ErrorMessage error={create.error} />
      </Section>
      {data.items.length === 0 ? (
        <p className="dash-panel">{t('teams.none')}</p>
      ) : (
        <table aria-label={t('nav.teams')}>
          <thead>
            <tr>
              <th scope="col">{t('teams.team')}</th>
              <th scope="col">{t('common.id')}</th>
              <th scope="col">{t('common.created')}</th>
            </tr>
          </thead>
          <tbody>
            {data.items.map((team) => (
              <tr key={team.id}>
                <td>
                  <Link href={paths.project(projectId, 'teams', team.id)}>{team.display_name}</Link>
                </td>
                <td>
                  <code>{team.id}</code>
                </td>
                <td>{'created_at_millis' in team ? formatDate(team.created_at_millis as number) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
