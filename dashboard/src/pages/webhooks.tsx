import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { WebhookPortalAccess } from './webhook-portal.tsx';
import { Checkbox, ConfirmDialog, ErrorMessage, formatDate, PageHeader, Section, TextField } from '../ui.tsx';

type WebhookEndpoint = Schema<'WebhookEndpoint'>;
type WebhookEndpointList = Schema<'WebhookEndpointList'>;

/** `user.created, team.created` → the list the API takes; empty means every event type. */
const parseEventTypes = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((type) => type.trim())
    .filter(Boolean);

/**
 * The project's webhook endpoints: added (the signing secret shown once), edited, enabled and disabled
 * at once (rolled back when refused), their secret rotated, a test message sent, removed; each
 * endpoint's delivery log is its own page.
 */
export function WebhooksPage() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListWebhookEndpointsQueryKey();
  const endpoints = api.useListWebhookEndpointsSuspense({ request });
  const create = api.useCreateWebhookEndpoint({ request });
  const [form, setForm] = useState({ url: '', description: '', eventTypes: '' });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSecret(null);
    create.mutate(
      { data: { url: form.url.trim(), description: form.description.trim(), event_types: parseEventTypes(form.eventTypes) } },
      {
        onSuccess: (endpoint) => {
          setSecret({ url: endpoint.url, secret: endpoint.secret });
          setForm({ url: '', description: '', eventTypes: '' });
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <>
      <PageHeader title="Webhooks" />
      <Section
        title="Add an endpoint"
        description="Every event of the project (users, teams, memberships, permissions, emails, payments) is posted to the endpoint, signed per Standard Webhooks with its own whsec_ secret. Private and loopback addresses are refused unless the project allows localhost."
      >
        <form className="dash-form" onSubmit={submit}>
          <div className="dash-grid-2">
            <TextField
              label="Endpoint URL"
              name="url"
              type="url"
              required
              placeholder="https://example.com/webhooks"
              value={form.url}
              onChange={(event) => setForm({ ...form, url: event.target.value })}
            />
            <TextField
              label="Description"
              name="description"
              value={form.description}
              onChange={(event) => setForm({ ...form, description: event.target.value })}
            />
          </div>
          <TextField
            label="Event types"
            name="event_types"
            hint="Comma-separated, e.g. user.created, team.created; empty: every event."
            value={form.eventTypes}
            onChange={(event) => setForm({ ...form, eventTypes: event.target.value })}
          />
          <ErrorMessage error={create.error} />
          <div>
            <button type="submit" className="gh-primary" disabled={create.isPending || !form.url.trim()}>
              {create.isPending ? 'Adding…' : 'Add endpoint'}
            </button>
          </div>
        </form>
      </Section>
      {secret ? <SecretOnce {...secret} onDone={() => setSecret(null)} /> : null}
      <Section title="Endpoints">
        {endpoints.data.items.length === 0 ? <p className="dash-muted">No endpoints yet.</p> : null}
        <ul className="dash-list dash-webhooks" aria-label="Webhook endpoints">
          {endpoints.data.items.map((endpoint) => (
            <EndpointRow key={endpoint.id} endpoint={endpoint} onSecret={(shown) => setSecret(shown)} />
          ))}
        </ul>
      </Section>
      <WebhookPortalAccess />
    </>
  );
}

function SecretOnce({ url, secret, onDone }: { url: string; secret: string; onDone: () => void }) {
  return (
    <section className="dash-panel dash-created-keys" aria-label="Signing secret">
      <h2>Copy the signing secret now</h2>
      <p>
        The receiver at <code>{url}</code> verifies every message with it (e.g. <code>new Webhook(secret).verify(body, headers)</code> of
        the standardwebhooks package). It is not shown again here; rotate it to get a new one.
      </p>
      <dl>
        <div>
          <dt>Signing secret</dt>
          <dd>
            <code>{secret}</code>
          </dd>
        </div>
      </dl>
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}

function EndpointRow({ endpoint, onSecret }: { endpoint: WebhookEndpoint; onSecret: (shown: { url: string; secret: string }) => void }) {
  const { request, projectId } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListWebhookEndpointsQueryKey();
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState<'delete' | 'rotate' | null>(null);
  const update = api.useUpdateWebhookEndpoint({
    request,
    mutation: {
      // Enabling and disabling shows at once and rolls back when the server refuses.
      onMutate: async ({ endpointId, data }) => {
        await queryClient.cancelQueries({ queryKey: key });
        const previous = queryClient.getQueryData<WebhookEndpointList>(key);
        if (previous && data.enabled !== undefined) {
          const items = previous.items.map((item) =>
            item.id === endpointId ? { ...item, enabled: data.enabled as boolean, disabled_reason: null } : item,
          );
          queryClient.setQueryData(key, { ...previous, items });
        }
        return { previous };
      },
      onError: (_error, _variables, context) => {
        if (context?.previous) queryClient.setQueryData(key, context.previous);
      },
      onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
    },
  });
  const remove = api.useDeleteWebhookEndpoint({ request });
  const rotate = api.useResetWebhookEndpointSecret({ request });
  const test = api.useSendTestWebhook({ request });
  const name = endpoint.description || endpoint.url;

  return (
    <li className="dash-webhook">
      <div className="dash-stack">
        <span>
          <strong>{endpoint.url}</strong> {endpoint.description ? <span className="dash-muted">— {endpoint.description}</span> : null}
        </span>
        <span className="dash-muted">
          {endpoint.event_types.length ? endpoint.event_types.join(', ') : 'every event type'} · created{' '}
          {formatDate(endpoint.created_at_millis)}
          {endpoint.previous_secret_expires_at_millis
            ? ` · previous secret signs until ${formatDate(endpoint.previous_secret_expires_at_millis)}`
            : ''}
        </span>
        {endpoint.disabled_reason === 'failing' ? (
          <span className="dash-error">Disabled: its deliveries failed for 5 days. Enable it once the receiver works again.</span>
        ) : null}
        <div className="dash-row">
          <Checkbox
            label={`Enabled: ${name}`}
            checked={endpoint.enabled}
            onChange={(enabled) => update.mutate({ endpointId: endpoint.id, data: { enabled } })}
          />
          <Link href={paths.project(projectId, 'webhooks', endpoint.id)}>Delivery log</Link>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit
          </button>
          <button
            type="button"
            disabled={test.isPending}
            onClick={() => test.mutate({ data: { endpoint_id: endpoint.id } })}
            aria-label={`Send test to ${name}`}
          >
            {test.isPending ? 'Sending…' : 'Send test'}
          </button>
          <button type="button" onClick={() => setDialog('rotate')} aria-label={`Rotate secret of ${name}`}>
            Rotate secret
          </button>
          <button type="button" className="gh-danger" onClick={() => setDialog('delete')} aria-label={`Delete ${name}`}>
            Delete
          </button>
        </div>
        {test.data ? (
          <p role="status" className={test.data.success ? 'dash-success' : 'dash-error'}>
            {test.data.success ? 'The test message was accepted.' : `The test message failed: ${test.data.error_message ?? 'no answer'}`}
          </p>
        ) : null}
        <ErrorMessage error={test.error ?? update.error} />
        {editing ? <EditEndpoint endpoint={endpoint} onDone={() => setEditing(false)} /> : null}
      </div>
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        busy={remove.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() =>
          remove.mutate(
            { endpointId: endpoint.id },
            {
              onSuccess: async () => {
                await queryClient.invalidateQueries({ queryKey: key });
                setDialog(null);
              },
            },
          )
        }
      >
        <p>
          <code>{endpoint.url}</code> gets no more messages; its pending deliveries and its delivery log are removed.
        </p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        tone="primary"
        busy={rotate.isPending}
        onClose={() => setDialog(null)}
        onConfirm={() =>
          rotate.mutate(
            { endpointId: endpoint.id, data: {} },
            {
              onSuccess: async (rotated) => {
                onSecret({ url: rotated.url, secret: rotated.secret });
                await queryClient.invalidateQueries({ queryKey: key });
                setDialog(null);
              },
            },
          )
        }
      >
        <p>The new secret signs at once; the current one keeps signing beside it for 24 hours, so the receiver can switch.</p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
    </li>
  );
}

function EditEndpoint({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const update = api.useUpdateWebhookEndpoint({ request });
  const [form, setForm] = useState({ url: endpoint.url, description: endpoint.description, eventTypes: endpoint.event_types.join(', ') });
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      {
        endpointId: endpoint.id,
        data: { url: form.url.trim(), description: form.description.trim(), event_types: parseEventTypes(form.eventTypes) },
      },
      {
        onSuccess: async () => {
          await queryClient.invalidateQueries({ queryKey: api.getListWebhookEndpointsQueryKey() });
          onDone();
        },
      },
    );
  }
  return (
    <form className="dash-form" onSubmit={submit} aria-label={`Edit ${endpoint.url}`}>
      <div className="dash-grid-2">
        <TextField
          label="New URL"
          name="url"
          type="url"
          required
          value={form.url}
          onChange={(event) => setForm({ ...form, url: event.target.value })}
        />
        <TextField
          label="New description"
          name="description"
          value={form.description}
          onChange={(event) => setForm({ ...form, description: event.target.value })}
        />
      </div>
      <TextField
        label="New event types"
        name="event_types"
        hint="Comma-separated; empty: every event."
        value={form.eventTypes}
        onChange={(event) => setForm({ ...form, eventTypes: event.target.value })}
      />
      <ErrorMessage error={update.error} />
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save endpoint'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
