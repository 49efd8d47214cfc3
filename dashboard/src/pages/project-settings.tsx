import { type AdminProject, api, type ProjectUpdate, useGatehouse, useTeams } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope, useRootQueryClient } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

type LogoField = 'logo_url' | 'logo_full_url' | 'logo_dark_mode_url' | 'logo_full_dark_mode_url';
const logoFields: Array<[LogoField, string]> = [
  ['logo_url', 'Logo (square)'],
  ['logo_full_url', 'Full logo'],
  ['logo_dark_mode_url', 'Logo for dark mode (square)'],
  ['logo_full_dark_mode_url', 'Full logo for dark mode'],
];

/**
 * The project's own settings: name, description and logos (saved optimistically: the page shows the
 * change at once and puts the old values back if the server refuses), transfer to another team of
 * the owner, and deletion behind a confirmation that asks for the project's name.
 */
export function ProjectSettingsPage() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  return (
    <>
      <PageHeader title={project.display_name}>
        <span className="dash-muted">Project settings</span>
      </PageHeader>
      <GeneralSettings key={project.id} project={project} />
      <TransferProject project={project} />
      <DeleteProject project={project} />
    </>
  );
}

function useOptimisticProjectUpdate() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const rootQueryClient = useRootQueryClient();
  const key = api.getGetAdminProjectQueryKey();
  return api.useUpdateAdminProject({
    request,
    mutation: {
      onMutate: async ({ data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<AdminProject>(key);
        if (previous) queryClient.setQueryData<AdminProject>(key, { ...previous, ...(data as Partial<AdminProject>) });
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSuccess: (project) => {
        queryClient.setQueryData(key, project);
        void rootQueryClient.invalidateQueries({ queryKey: api.getListInternalProjectsQueryKey() });
      },
    },
  });
}

function GeneralSettings({ project }: { project: AdminProject }) {
  const update = useOptimisticProjectUpdate();
  const [form, setForm] = useState({
    display_name: project.display_name,
    description: project.description,
    logo_url: project.logo_url ?? '',
    logo_full_url: project.logo_full_url ?? '',
    logo_dark_mode_url: project.logo_dark_mode_url ?? '',
    logo_full_dark_mode_url: project.logo_full_dark_mode_url ?? '',
  });
  const [saved, setSaved] = useState(false);
  const set = (field: keyof typeof form, value: string) => {
    setSaved(false);
    setForm((current) => ({ ...current, [field]: value }));
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const changes: ProjectUpdate = { display_name: form.display_name.trim(), description: form.description };
    for (const [field] of logoFields) changes[field] = form[field].trim() || null;
    update.mutate({ data: changes }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Section title="General">
      <form className="dash-form" onSubmit={submit}>
        <TextField
          label="Project name"
          name="display_name"
          value={form.display_name}
          onChange={(event) => set('display_name', event.target.value)}
        />
        <TextField
          label="Description"
          name="description"
          value={form.description}
          onChange={(event) => set('description', event.target.value)}
        />
        <div className="dash-grid-2">
          {logoFields.map(([field, label]) => (
            <div key={field} className="dash-logo-field">
              <TextField
                label={label}
                name={field}
                value={form[field]}
                placeholder="https://… or data:image/…"
                onChange={(event) => set(field, event.target.value)}
              />
              {project[field] ? <img src={project[field] ?? ''} alt={`${label} preview`} className="dash-logo-preview" /> : null}
            </div>
          ))}
        </div>
        <p className="dash-muted">
          Project id <code>{project.id}</code>
        </p>
        <ErrorMessage error={update.error} />
        {saved ? (
          <p role="status" className="dash-success">
            Saved.
          </p>
        ) : null}
        <div className="dash-row">
          <button type="submit" className="gh-primary" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save'}
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
    <Section title="Transfer" description={`Owned by ${owner?.display_name ?? 'a team you are not in'}. Move it to another of your teams.`}>
      <form className="dash-row" onSubmit={submit}>
        <label htmlFor="transfer-team">New owner team</label>
        <select id="transfer-team" value={teamId} onChange={(event) => setTeamId(event.target.value)}>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.display_name}
            </option>
          ))}
        </select>
        <button type="submit" disabled={transfer.isPending || !teamId || teamId === project.owner_team_id}>
          {transfer.isPending ? 'Transferring…' : 'Transfer'}
        </button>
      </form>
      <ErrorMessage error={transfer.error} />
      {done ? (
        <p role="status" className="dash-success">
          Transferred.
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
    <Section title="Danger zone" description="Deleting the project deletes its users, teams, keys and settings. It cannot be undone.">
      <button type="button" className="gh-danger" onClick={() => setOpen(true)} disabled={project.id === 'internal'}>
        Delete project
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${project.display_name}?`}
        confirmLabel="Delete forever"
        busy={remove.isPending}
        canConfirm={typed === project.display_name}
        onConfirm={confirm}
        onClose={() => {
          setOpen(false);
          setTyped('');
        }}
      >
        <p>Everything in the project is deleted. Type the project's name to confirm.</p>
        <TextField label="Project name to confirm" name="confirm" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </Section>
  );
}
