import { type AdminProject, api, type ProjectUpdate, useGatehouse, useTeams } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope, useRootQueryClient } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';
import { useProjectUpdate } from './project-config.ts';

type LogoField = 'logo_url' | 'logo_full_url' | 'logo_dark_mode_url' | 'logo_full_dark_mode_url';
const logoFields = (t: Translate): Array<[LogoField, string]> => [
  ['logo_url', t('settings.logoSquare')],
  ['logo_full_url', t('settings.logoFull')],
  ['logo_dark_mode_url', t('settings.logoDarkSquare')],
  ['logo_full_dark_mode_url', t('settings.logoDarkFull')],
];

/**
 * The project's own settings: name, description and logos (saved optimistically: the page shows the
 * change at once and puts the old values back if the server refuses), transfer to another team of
 * the owner, and deletion behind a confirmation that asks for the project's name.
 */
export function ProjectSettingsPage() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={project.display_name}>
        <span className="dash-muted">{t('nav.settings')}</span>
      </PageHeader>
      <GeneralSettings key={project.id} project={project} />
      <TransferProject project={project} />
      <DeleteProject project={project} />
    </>
  );
}

function GeneralSettings({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const [form, setForm] = useState({
    display_name: project.display_name,
    description: project.description,
    logo_url: project.logo_url ?? '',
    logo_full_url: project.logo_full_url ?? '',
    logo_dark_mode_url: project.logo_dark_mode_url ?? '',
    logo_full_dark_mode_url: project.logo_full_dark_mode_url ?? '',
  });
  const [saved, setSaved] = useState(false);
  const { t } = useDashboardTranslation();
  const set = (field: keyof typeof form, value: string) => {
    setSaved(false);
    setForm((current) => ({ ...current, [field]: value }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const changes: ProjectUpdate = { display_name: form.display_name.trim(), description: form.description };
    for (const [field] of logoFields(t)) changes[field] = form[field].trim() || null;
    update.mutate({ data: changes }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Section title={t('settings.general')}>
      <form className="dash-form" onSubmit={submit}>
        <TextField
          label={t('settings.projectName')}
          name="display_name"
          value={form.display_name}
          onChange={(event) => set('display_name', event.target.value)}
        />
        <TextField
          label={t('settings.description')}
          name="description"
          value={form.description}
          onChange={(event) => set('description', event.target.value)}
        />
        <div className="dash-grid-2">
          {logoFields(t).map(([field, label]) => (
            <div key={field} className="dash-logo-field">
              <TextField
                label={label}
                name={field}
                value={form[field]}
                placeholder={t('settings.logoPlaceholder')}
                onChange={(event) => set(field, event.target.value)}
              />
              {project[field] ? (
                <img src={project[field] ?? ''} alt={t('settings.logoPreview', { label })} className="dash-logo-preview" />
              ) : null}
            </div>
          ))}
        </div>
        <p className="dash-muted">
          {t('settings.projectId')} <code>{project.id}</code>
        </p>
        <ErrorMessage error={update.error} />
        {saved ? (
          <p role="status" className="dash-success">
            {t('settings.saved')}
          </p>
        ) : null}
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={update.isPending}>
            {update.isPending ? t('settings.saving') : t('settings.save')}
          </button>
        </div>
      </form>
    </Section>
  );
}

function TransferProject({ project }: { project: AdminProject }) {
  const teams = useTeams();
  const queryClient = useQueryClient();
  const rootQueryClient = useRootQueryClient();
  const transfer = api.useTransferInternalProject();
  const [teamId, setTeamId] = useState(project.owner_team_id ?? '');
  const [done, setDone] = useState(false);
  const owner = teams.find((team) => team.id === project.owner_team_id);
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    setDone(false);
    transfer.mutate(
      { data: { project_id: project.id, new_team_id: teamId } },
      {
        onSuccess: async () => {
          setDone(true);
          await Promise.all([
            queryClient.invalidateQueries({ queryKey: api.getGetAdminProjectQueryKey() }),
            rootQueryClient.invalidateQueries({ queryKey: api.getListInternalProjectsQueryKey() }),
          ]);
        },
      },
    );
  }

  return (
    <Section
      title={t('settings.transfer')}
      description={t('settings.transferDescription', { owner: owner?.display_name ?? t('settings.teamNotIn') })}
    >
      <form className="dash-row" onSubmit={submit}>
        <label htmlFor="transfer-team">{t('settings.newOwnerTeam')}</label>
        <select id="transfer-team" value={teamId} onChange={(event) => setTeamId(event.target.value)}>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.display_name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={transfer.isPending || !teamId || teamId === project.owner_team_id}>
          {transfer.isPending ? t('settings.transferring') : t('settings.transfer')}
        </button>
      </form>
      <ErrorMessage error={transfer.error} />
      {done ? (
        <p role="status" className="dash-success">
          {t('settings.transferred')}
        </p>
      ) : null}
    </Section>
  );
}

function DeleteProject({ project }: { project: AdminProject }) {
  const gatehouse = useGatehouse();
  const { request } = useProjectScope();
  const rootQueryClient = useRootQueryClient();
  const remove = api.useDeleteAdminProject({ request });
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const { t } = useDashboardTranslation();

  function confirm() {
    remove.mutate(undefined, {
      onSuccess: async () => {
        setOpen(false);
        await rootQueryClient.invalidateQueries({ queryKey: api.getListInternalProjectsQueryKey() });
        gatehouse.navigate(paths.projects());
      },
    });
  }

  return (
    <Section title={t('settings.dangerZone')} description={t('settings.dangerDescription')}>
      <button type="button" className="gh-danger" onClick={() => setOpen(true)} disabled={project.id === 'internal'}>
        {t('settings.deleteProject')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('settings.deleteTitle', { name: project.display_name })}
        confirmLabel={t('settings.deleteForever')}
        busy={remove.isPending}
        canConfirm={typed === project.display_name}
        onConfirm={confirm}
        onClose={() => {
          setOpen(false);
          setTyped('');
        }}
      >
        <p>{t('settings.deleteExplained')}</p>
        <TextField label={t('settings.confirmName')} name="confirm" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
