import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
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
    <Section
      title="SCIM provisioning"
      description="The team's identity provider creates, updates and removes its members through SCIM 2.0."
    >
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label="Directory name"
          name="scim-name"
          placeholder="SCIM directory"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" disabled={create.isPending}>
          Create directory
        </button>
      </form>
      <ErrorMessage error={create.error ?? directories.error} />
      {created ? (
        <section className="dash-panel dash-created-keys" aria-label="New SCIM token">
          <h3>Copy the token now</h3>
          {created.previous_token_expires_at_millis !== null ? (
            <p>
              The previous token keeps working until {formatDate(created.previous_token_expires_at_millis)}: switch the identity provider
              over before then.
            </p>
          ) : null}
          <p>Give the identity provider the base URL and this bearer token. It is stored as a digest: this is the only time it is shown.</p>
          <dl className="dash-facts">
            <dt>SCIM base URL</dt>
            <dd>
              <code>{created.scim_base_url}</code>
            </dd>
            <dt>Bearer token</dt>
            <dd>
              <code>{created.token}</code>
            </dd>
          </dl>
          <div className="dash-row">
            <CopyButton value={created.token} label="Copy the SCIM token" />
            <button type="button" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </section>
      ) : null}
      {directories.data?.items.length === 0 ? <p className="dash-muted">No SCIM directories.</p> : null}
      <ul className="dash-list" aria-label="SCIM directories">
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
  return (
    <li>
      <span>
        {directory.display_name} <code>{directory.scim_base_url}</code>{' '}
        <span className="dash-muted">created {formatDate(directory.created_at_millis)}</span>
        {directory.previous_token_expires_at_millis !== null && directory.previous_token_expires_at_millis > Date.now() ? (
          <span className="dash-muted"> · previous token valid until {formatDate(directory.previous_token_expires_at_millis)}</span>
        ) : null}
      </span>
      <button type="button" onClick={() => setRotating(true)}>
        Rotate token of {directory.display_name}
      </button>
      <ConfirmDialog
        open={rotating}
        title={`Rotate the token of ${directory.display_name}?`}
        confirmLabel="Rotate token"
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
        <p>A new token is shown once. The current token keeps working for 24 hours, then is refused.</p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
      <button type="button" className="gh-danger" onClick={() => setConfirming(true)}>
        Delete {directory.display_name}
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${directory.display_name}?`}
        confirmLabel="Delete directory"
        busy={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ teamId: directory.team_id, directoryId: directory.id }, { onSuccess: onDeleted })}
      >
        <p>Its token stops working at once. The users it provisioned stay members of the team.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </li>
  );
}
