import { api, type PermissionDefinition } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

type Scope = 'team' | 'project';

/**
 * Team and project permission definitions: what each contains (edited as checkboxes over the other
 * definitions of its scope), create and delete. A change that would make a cycle is refused by the
 * server; its message is shown beside the definition and nothing changes.
 */
export function PermissionsPage() {
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.permissions')} />
      <Definitions scope="team" />
      <Definitions scope="project" />
    </>
  );
}

function useDefinitions(scope: Scope) {
  const { request } = useProjectScope();
  const team = api.useListTeamPermissionDefinitions({
    request,
    query: { enabled: scope === 'team', queryKey: api.getListTeamPermissionDefinitionsQueryKey() },
  });
  const project = api.useListProjectPermissionDefinitions({
    request,
    query: { enabled: scope === 'project', queryKey: api.getListProjectPermissionDefinitionsQueryKey() },
  });
  return scope === 'team' ? team : project;
}

function Definitions({ scope }: { scope: Scope }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const definitions = useDefinitions(scope);
  const key = scope === 'team' ? api.getListTeamPermissionDefinitionsQueryKey() : api.getListProjectPermissionDefinitionsQueryKey();
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const createTeam = api.useCreateTeamPermissionDefinition({ request });
  const createProject = api.useCreateProjectPermissionDefinition({ request });
  const create = scope === 'team' ? createTeam : createProject;
  const [id, setId] = useState('');
  const [description, setDescription] = useState('');
  const { t } = useDashboardTranslation();
  const title = scope === 'team' ? t('permissions.team') : t('permissions.project');

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { data: { id: id.trim(), description: description.trim() } },
      {
        onSuccess: () => {
          setId('');
          setDescription('');
          void refresh();
        },
      },
    );
  }

  const items = definitions.data?.items ?? [];
  return (
    <Section title={title} description={scope === 'team' ? t('permissions.teamDescription') : t('permissions.projectDescription')}>
      <form
        className="dash-row dash-toolbar"
        onSubmit={submit}
        aria-label={scope === 'team' ? t('permissions.newTeam') : t('permissions.newProject')}
      >
        <TextField
          label={scope === 'team' ? t('permissions.newTeamId') : t('permissions.newProjectId')}
          name={`${scope}-permission-id`}
          value={id}
          onChange={(event) => setId(event.target.value)}
        />
        <TextField
          label={t('permissions.description')}
          name={`${scope}-permission-description`}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <button type="submit" disabled={create.isPending || !id.trim()}>
          {t('permissions.create')}
        </button>
      </form>
      <ErrorMessage error={create.error ?? definitions.error} />
      {definitions.isPending ? <p className="dash-muted">{t('common.loading')}</p> : null}
      <table aria-label={title}>
        <thead>
          <tr>
            <th scope="col">{t('permissions.permission')}</th>
            <th scope="col">{t('permissions.contains')}</th>
            <th scope="col">
              <span className="dash-visually-hidden">{t('permissions.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((definition) => (
            <DefinitionRow key={definition.id} scope={scope} definition={definition} all={items} onChanged={refresh} />
          ))}
        </tbody>
      </table>
    </Section>
  );
}

function DefinitionRow({
  scope,
  definition,
  all,
  onChanged,
}: {
  scope: Scope;
  definition: PermissionDefinition;
  all: PermissionDefinition[];
  onChanged: () => void;
}) {
  const { request } = useProjectScope();
  const updateTeam = api.useUpdateTeamPermissionDefinition({ request });
  const updateProject = api.useUpdateProjectPermissionDefinition({ request });
  const deleteTeam = api.useDeleteTeamPermissionDefinition({ request });
  const deleteProject = api.useDeleteProjectPermissionDefinition({ request });
  const update = scope === 'team' ? updateTeam : updateProject;
  const remove = scope === 'team' ? deleteTeam : deleteProject;
  // Shown at once while the server decides; a refused change (a cycle) goes back to what the server has.
  const [pending, setPending] = useState<string[] | null>(null);
  const contained = new Set(pending ?? definition.contained_permission_ids);
  const isSystem = definition.id.startsWith('$');
  const { t } = useDashboardTranslation();

  const toggle = (other: string, on: boolean) => {
    const next = on ? [...contained, other] : [...contained].filter((id) => id !== other);
    setPending(next);
    update.mutate(
      { permissionId: definition.id, data: { contained_permission_ids: next } },
      {
        onSuccess: async () => {
          await onChanged();
          setPending(null);
        },
        onError: () => setPending(null),
      },
    );
  };

  return (
    <tr>
      <th scope="row">
        <code>{definition.id}</code>
        {definition.description ? <p className="dash-muted">{definition.description}</p> : null}
      </th>
      <td>
        {isSystem ? (
          <span className="dash-muted">{t('permissions.system')}</span>
        ) : (
          <fieldset className="dash-fieldset">
            <legend className="dash-visually-hidden">{t('permissions.whatContains', { id: definition.id })}</legend>
            <div className="dash-row">
              {all
                .filter((other) => other.id !== definition.id)
                .map((other) => (
                  <label key={other.id} className="dash-check">
                    <input
                      type="checkbox"
                      checked={contained.has(other.id)}
                      disabled={update.isPending}
                      onChange={(event) => toggle(other.id, event.target.checked)}
                    />
                    <code>{other.id}</code>
                  </label>
                ))}
            </div>
          </fieldset>
        )}
        <ErrorMessage error={update.error ?? remove.error} />
      </td>
      <td>
        {isSystem ? null : (
          <button
            type="button"
            className="gh-danger"
            onClick={() => remove.mutate({ permissionId: definition.id }, { onSuccess: onChanged })}
            aria-label={t('permissions.deleteLabel', { id: definition.id })}
          >
            {t('permissions.delete')}
          </button>
        )}
      </td>
    </tr>
  );
}
