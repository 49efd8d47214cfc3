import { api, Link, type InternalApiKey, type InternalApiKeyCreated } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, formatDate, PageHeader, Section, TextField } from '../ui.tsx';

const DAY = 24 * 60 * 60 * 1000;

/** The project's own key sets: created with their full keys shown this once, listed by their last four characters, revoked. */
export function ApiKeysPage() {
  const { projectId, request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListInternalApiKeysQueryKey();
  const keys = api.useListInternalApiKeysSuspense({ request });
  const create = api.useCreateInternalApiKey({ request });
  const [form, setForm] = useState({ description: '', days: '365', publishable: true, secret: true, admin: false });
  const [created, setCreated] = useState<InternalApiKeyCreated | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      {
        data: {
          description: form.description.trim(),
          expires_at_millis: Date.now() + Number(form.days) * DAY,
          has_publishable_client_key: form.publishable,
          has_secret_server_key: form.secret,
          has_super_secret_admin_key: form.admin,
        },
      },
      {
        onSuccess: (keySet) => {
          setCreated(keySet);
          setForm({ ...form, description: '' });
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <>
      <PageHeader title="API keys" />
      <p className="dash-muted dash-page-intro">
        The project's own keys, for your backend and your apps. Keys your users and teams create for themselves are turned on under{' '}
        <Link href={paths.project(projectId, 'auth')}>Authentication</Link>.
      </p>
      <Section title="Create a key set">
        <form className="dash-form" onSubmit={submit}>
          <div className="dash-grid-2">
            <TextField
              label="Description"
              name="description"
              value={form.description}
              onChange={(event) => setForm({ ...form, description: event.target.value })}
            />
            <div className="dash-field">
              <label htmlFor="key-expiry">Expires in</label>
              <select id="key-expiry" value={form.days} onChange={(event) => setForm({ ...form, days: event.target.value })}>
                <option value="1">1 day</option>
                <option value="30">30 days</option>
                <option value="365">1 year</option>
                <option value="36500">100 years</option>
              </select>
            </div>
          </div>
          <fieldset className="dash-fieldset">
            <legend>Keys in the set</legend>
            <Checkbox
              label="Publishable client key"
              checked={form.publishable}
              onChange={(publishable) => setForm({ ...form, publishable })}
            />
            <Checkbox label="Secret server key" checked={form.secret} onChange={(secret) => setForm({ ...form, secret })} />
            <Checkbox label="Super secret admin key" checked={form.admin} onChange={(admin) => setForm({ ...form, admin })} />
          </fieldset>
          <ErrorMessage error={create.error} />
          <div>
            <button type="submit" className="gh-primary" disabled={create.isPending || !(form.publishable || form.secret || form.admin)}>
              {create.isPending ? 'Creating…' : 'Create key set'}
            </button>
          </div>
        </form>
      </Section>
      {created ? <CreatedKeys keySet={created} onDone={() => setCreated(null)} /> : null}
      <Section title="Key sets">
        {keys.data.items.length === 0 ? <p className="dash-muted">No key sets.</p> : null}
        <ul className="dash-list" aria-label="Key sets">
          {keys.data.items.map((keySet) => (
            <KeySetRow key={keySet.id} keySet={keySet} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function CreatedKeys({ keySet, onDone }: { keySet: InternalApiKeyCreated; onDone: () => void }) {
  const entries: Array<[string, string | undefined]> = [
    ['Publishable client key', keySet.publishable_client_key],
    ['Secret server key', keySet.secret_server_key],
    ['Super secret admin key', keySet.super_secret_admin_key],
  ];
  return (
    <section className="dash-panel dash-created-keys" aria-label="New keys">
      <h2>Copy the new keys now</h2>
      <p>They are stored as digests: this is the only time they are shown.</p>
      <dl>
        {entries
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
      </dl>
      <button type="button" onClick={onDone}>
        I have copied them
      </button>
    </section>
  );
}

function statusOf(keySet: InternalApiKey): string {
  if (keySet.expires_at_millis < Date.now()) return 'expired';
  if (keySet.manually_revoked_at_millis) return `revoked ${formatDate(keySet.manually_revoked_at_millis)}`;
  return `valid until ${formatDate(keySet.expires_at_millis)}`;
}

function KeySetRow({ keySet }: { keySet: InternalApiKey }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListInternalApiKeysQueryKey();
  const revoke = api.useUpdateInternalApiKey({ request });
  const [open, setOpen] = useState(false);
  const lastFours = [
    keySet.publishable_client_key ? `pck …${keySet.publishable_client_key.last_four}` : null,
    keySet.secret_server_key ? `ssk …${keySet.secret_server_key.last_four}` : null,
    keySet.super_secret_admin_key ? `sak …${keySet.super_secret_admin_key.last_four}` : null,
  ].filter(Boolean);
  const active = !keySet.manually_revoked_at_millis && keySet.expires_at_millis >= Date.now();
  return (
    <li>
      <span>
        <strong>{keySet.description || 'Key set'}</strong> <span className="dash-muted">{lastFours.join(' · ')}</span>
        <br />
        <span className="dash-muted">
          created {formatDate(keySet.created_at_millis)} · {statusOf(keySet)}
        </span>
      </span>
      {active ? (
        <button type="button" className="gh-danger" onClick={() => setOpen(true)} aria-label={`Revoke ${keySet.description || 'key set'}`}>
          Revoke
        </button>
      ) : null}
      <ConfirmDialog
        open={open}
        title="Revoke this key set?"
        confirmLabel="Revoke keys"
        busy={revoke.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          revoke.mutate(
            { apiKeyId: keySet.id, data: { revoked: true } },
            {
              onSuccess: async () => {
                await queryClient.invalidateQueries({ queryKey: key });
                setOpen(false);
              },
            },
          )
        }
      >
        <p>Apps using these keys stop working at once.</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </li>
  );
}
