import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, Section, TextField } from '../ui.tsx';

type ScimDirectory = Schema<'ScimDirectory'>;

/**
 * A team's SCIM directories: create one (its base URL and bearer token for the IdP, the token shown only
 * then), rotate its token (the old one keeps working for a day) and delete one (its token stops working
 * at once; provisioned users stay members).
 */
export function ScimDirectories({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListScimDirectoriesQueryKey(teamId);
  const directories = api.useListScimDirectories(teamId, { request });
  const create = api.useCreateScimDirectory({ request });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<Schema<'ScimDirectoryWithToken'> | null>(null);
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { teamId, data: name.trim() ? { display_name: name.trim() } : {} },
      {
        onSuccess: (directory) => {
          setName('');
          setCreated(directory);
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section title={t('scim.title')} description={t('scim.description')}>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label={t('scim.directoryName')}
          name="scim-name"
          placeholder={t('scim.directoryPlaceholder')}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" disabled={create.isPending}>
          {t('scim.create')}
        </button>
      </form>
      <ErrorMessage error={create.error ?? directories.error} />
      {created ? (
        <section className="dash-panel dash-created-keys" aria-label={t('scim.newToken')}>
          <h3>{t('scim.copyNow')}</h3>
          {created.previous_token_expires_at_millis !== null ? (
            <p>{t('scim.previousUntil', { date: formatDate(created.previous_token_expires_at_millis) })}</p>
          ) : null}
          <p>{t('scim.giveIdp')}</p>
          <dl className="dash-facts">
            <dt>{t('scim.baseUrl')}</dt>
            <dd>
              <code>{created.scim_base_url}</code>
            </dd>
            <dt>{t('scim.bearerToken')}</dt>
            <dd>
              <code>{created.token}</code>
            </dd>
          </dl>
          <div className="dash-row">
            <CopyButton value={created.token} label={t('scim.copyToken')} />
            <button type="button" onClick={() => setCreated(null)}>
              {t('scim.copied')}
            </button>
          </div>
        </section>
      ) : null}
      {directories.data?.items.length === 0 ? <p className="dash-muted">{t('scim.none')}</p> : null}
      <ul className="dash-list" aria-label={t('scim.directories')}>
        {directories.data?.items.map((directory) => (
          <DirectoryRow
            key={directory.id}
            directory={directory}
            onDeleted={() => void queryClient.invalidateQueries({ queryKey: key })}
            onRotated={(rotated) => {
              setCreated(rotated);
              void queryClient.invalidateQueries({ queryKey: key });
            }}
          />
        ))}
      </ul>
    </Section>
  );
}

type DirectoryRowProps = {
  directory: ScimDirectory;
  onDeleted: () => void;
  onRotated: (rotated: Schema<'ScimDirectoryWithToken'>) => void;
};

function DirectoryRow({ directory, onDeleted, onRotated }: DirectoryRowProps) {
  const { request } = useProjectScope();
  const remove = api.useDeleteScimDirectory({ request });
  const rotate = api.useCreateScimDirectoryToken({ request });
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const { t } = useDashboardTranslation();
  const named = { name: directory.display_name };
  return (
    <li>
      <span>
        {directory.display_name} <code>{directory.scim_base_url}</code>{' '}
        <span className="dash-muted">{t('scim.created', { date: formatDate(directory.created_at_millis) })}</span>
        {directory.previous_token_expires_at_millis !== null && directory.previous_token_expires_at_millis > Date.now() ? (
          <span className="dash-muted">
            {' · '}
            {t('scim.previousValid', { date: formatDate(directory.previous_token_expires_at_millis) })}
          </span>
        ) : null}
      </span>
      <button type="button" onClick={() => setRotating(true)}>
        {t('scim.rotateOf', named)}
      </button>
      <ConfirmDialog
        open={rotating}
        title={t('scim.rotateTitle', named)}
        confirmLabel={t('scim.rotateConfirm')}
        busy={rotate.isPending}
        onClose={() => setRotating(false)}
        onConfirm={() =>
          rotate.mutate(
            { teamId: directory.team_id, directoryId: directory.id, data: { overlap_hours: 24 } },
            {
              onSuccess: (rotated) => {
                setRotating(false);
                onRotated(rotated);
              },
            },
          )
        }
      >
        <p>{t('scim.rotateExplained')}</p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
      <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
        {t('scim.delete', named)}
      </button>
      <ConfirmDialog
        open={confirming}
        title={t('scim.deleteTitle', named)}
        confirmLabel={t('scim.deleteConfirm')}
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ teamId: directory.team_id, directoryId: directory.id }, { onSuccess: onDeleted })}
      >
        <p>{t('scim.deleteExplained')}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </li>
  );
}
