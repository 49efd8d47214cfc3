import { ApiHttpError } from '@gatehouse/client';
import { api, type TeamApiKey, type TeamApiKeyCreated } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, QueryState, Section, TextField } from '../ui.tsx';

/**
 * The server's answer when the project has the feature off ("User API keys are not enabled for this project.",
 * a plain 400): a setting, not a failure, so it is shown as a plain note; null for any other error.
 */
export function keysNotEnabled(error: unknown): string | null {
  return error instanceof ApiHttpError &&
    error.status === 400 &&
    /^(User|Team) API keys are not enabled for this project\.$/.test(error.message)
    ? error.message
    : null;
}

/** A key's state in a word or two: revoked, expired, or until when it is valid. */
export function keyStatus(key: { manually_revoked_at_millis?: number; expires_at_millis?: number }): string {
  if (key.manually_revoked_at_millis) return `revoked ${formatDate(key.manually_revoked_at_millis)}`;
  if (key.expires_at_millis !== undefined && key.expires_at_millis < Date.now()) return 'expired';
  return key.expires_at_millis !== undefined ? `valid until ${formatDate(key.expires_at_millis)}` : 'never expires';
}

/** A team's API keys: listed by their last four characters, created (the full value shown this once), revoked behind a confirmation. */
export function TeamApiKeys({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListTeamApiKeysQueryKey({ team_id: teamId });
  const keys = api.useListTeamApiKeys({ team_id: teamId }, { request });
  const create = api.useCreateTeamApiKey({ request });
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState<TeamApiKeyCreated | null>(null);
  const off = keysNotEnabled(keys.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      { data: { team_id: teamId, description: description.trim() } },
      {
        onSuccess: (apiKey) => {
          setCreated(apiKey);
          setDescription('');
          void queryClient.invalidateQueries({ queryKey: key });
        },
        // Turned off meanwhile: the list, asked again, says so.
        onError: (error) => {
          if (keysNotEnabled(error)) void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section
      title="API keys"
      description="Keys the team's own code calls the project's API with; each is shown in full once, when created."
    >
      {off ? (
        <p className="dash-muted">{off}</p>
      ) : (
        <QueryState query={keys} what="the team's API keys">
          <form className="dash-row dash-toolbar" onSubmit={submit} aria-label="Create a team API key">
            <TextField
              label="Key description"
              name="team-key-description"
              value={description}
              onChange={(event) => setDescription(event.target.value)}
            />
            <button type="submit" disabled={create.isPending || !description.trim()}>
              {create.isPending ? 'Creating…' : 'Create key'}
            </button>
          </form>
          {keysNotEnabled(create.error) ? (
            <p className="dash-muted">{keysNotEnabled(create.error)}</p>
          ) : (
            <ErrorMessage error={create.error} />
          )}
          {created ? (
            <section className="dash-panel dash-created-keys" aria-label="New team API key">
              <h3>Copy the new key now</h3>
              <p>It is stored as a digest: this is the only time it is shown.</p>
              <code>{created.value}</code>
              <div className="dash-row">
                <CopyButton value={created.value} label="Copy the new key" />
                <button type="button" onClick={() => setCreated(null)}>
                  I have copied it
                </button>
              </div>
            </section>
          ) : null}
          {keys.data?.items.length === 0 ? <p className="dash-muted">No API keys.</p> : null}
          <ul className="dash-list" aria-label="Team API keys">
            {keys.data?.items.map((apiKey) => (
              <TeamKeyRow key={apiKey.id} teamId={teamId} apiKey={apiKey} />
            ))}
          </ul>
        </QueryState>
      )}
    </Section>
  );
}

function TeamKeyRow({ teamId, apiKey }: { teamId: string; apiKey: TeamApiKey }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const revoke = api.useUpdateTeamApiKey({ request });
  const [open, setOpen] = useState(false);
  const name = apiKey.description || 'API key';
  const active = !apiKey.manually_revoked_at_millis && (apiKey.expires_at_millis === undefined || apiKey.expires_at_millis >= Date.now());
  return (
    <li>
      <span>
        <strong>{name}</strong> <span className="dash-muted">…{apiKey.value.last_four}</span>
        <br />
        <span className="dash-muted">
          created {formatDate(apiKey.created_at_millis)} · {keyStatus(apiKey)}
        </span>
      </span>
      {active ? (
        <button type="button" className="gh-danger" onClick={() => setOpen(true)} aria-label={`Revoke ${name}`}>
          Revoke
        </button>
      ) : null}
      <ConfirmDialog
        open={open}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          revoke.mutate(
            { apiKeyId: apiKey.id, params: { team_id: teamId }, data: { revoked: true } },
            {
              onSuccess: async () => {
                await queryClient.invalidateQueries({ queryKey: api.getListTeamApiKeysQueryKey({ team_id: teamId }) });
                setOpen(false);
              },
            },
          )
        }
      >
        <p>Code using {name} stops working at once.</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </li>
  );
}
