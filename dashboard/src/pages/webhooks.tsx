import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { optimisticUpdate } from '../optimistic.ts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { WebhookPortalAccess } from './webhook-portal.tsx';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

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
  const { t } = useDashboardTranslation();
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
      <PageHeader title={t('nav.webhooks')} />
      <Section title={t('webhooks.addTitle')} description={t('webhooks.addDescription')}>
        <form className="dash-form" onSubmit={submit}>
          <div className="dash-grid-2">
            <TextField
              label={t('webhooks.endpointUrl')}
              name="url"
              type="url"
              required
              placeholder="https://example.com/webhooks"
              value={form.url}
              onChange={(event) => setForm({ ...form, url: event.target.value })}
            />
            <TextField
              label={t('webhooks.description')}
              name="description"
              value={form.description}
              onChange={(event) => setForm({ ...form, description: event.target.value })}
            />
          </div>
          <TextField
            label={t('webhooks.eventTypes')}
            name="event_types"
            hint={t('webhooks.eventTypesHint')}
            value={form.eventTypes}
            onChange={(event) => setForm({ ...form, eventTypes: event.target.value })}
          />
          <ErrorMessage error={create.error} />
          <div>
            <button type="submit" className="gh-primary" disabled={create.isPending || !form.url.trim()}>
              {create.isPending ? t('webhooks.adding') : t('webhooks.add')}
            </button>
          </div>
        </form>
      </Section>
      {secret ? <SecretOnce {...secret} onDone={() => setSecret(null)} /> : null}
      <Section title={t('webhooks.endpoints')}>
        {endpoints.data.items.length === 0 ? <p className="dash-muted">{t('webhooks.none')}</p> : null}
        <ul className="dash-list dash-webhooks" aria-label={t('webhooks.listLabel')}>
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
  const { t } = useDashboardTranslation();
  return (
    <section className="dash-panel dash-created-keys" aria-label={t('webhooks.signingSecret')}>
      <h2>{t('webhooks.copySecretNow')}</h2>
      <p>{t('webhooks.secretExplained', { url, example: 'new Webhook(secret).verify(body, headers)' })}</p>
      <dl>
        <div>
          <dt>{t('webhooks.signingSecret')}</dt>
          <dd>
            <code>{secret}</code>
          </dd>
        </div>
      </dl>
      <button type="button" onClick={onDone}>
        {t('webhooks.copiedIt')}
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
  const { t, formatDate } = useDashboardTranslation();

  const update = api.useUpdateWebhookEndpoint({
    request,
    // Enabling and disabling shows at once and rolls back when the server refuses.
    mutation: optimisticUpdate(
      queryClient,
      key,
      (cached: WebhookEndpointList, { endpointId, data }: { endpointId: string; data: { enabled?: boolean } }) =>
        data.enabled === undefined
          ? cached
          : {
              ...cached,
              items: cached.items.map((item) =>
                item.id === endpointId ? { ...item, enabled: data.enabled as boolean, disabled_reason: null } : item,
              ),
            },
    ),
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
          {endpoint.event_types.length ? endpoint.event_types.join(', ') : t('webhooks.everyEventType')} ·{' '}
          {t('webhooks.createdAt', { date: formatDate(endpoint.created_at_millis) })}
          {endpoint.previous_secret_expires_at_millis
            ? ` · ${t('webhooks.previousSecretUntil', { date: formatDate(endpoint.previous_secret_expires_at_millis) })}`
            : ''}
        </span>
        {endpoint.disabled_reason === 'failing' ? <span className="dash-error">{t('webhooks.disabledFailing')}</span> : null}
        <div className="dash-row">
          <Checkbox
            label={t('webhooks.enabledLabel', { name })}
            checked={endpoint.enabled}
            onChange={(enabled) => update.mutate({ endpointId: endpoint.id, data: { enabled } })}
          />
          <Link href={paths.project(projectId, 'webhooks', endpoint.id)}>{t('webhooks.deliveryLog')}</Link>
          <button type="button" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            {t('webhooks.edit')}
          </button>
          <button
            type="button"
            disabled={test.isPending}
            onClick={() => test.mutate({ data: { endpoint_id: endpoint.id } })}
            aria-label={t('webhooks.sendTestTo', { name })}
          >
            {test.isPending ? t('webhooks.sending') : t('webhooks.sendTest')}
          </button>
          <button type="button" onClick={() => setDialog('rotate')} aria-label={t('webhooks.rotateSecretOf', { name })}>
            {t('webhooks.rotateSecret')}
          </button>
          <button type="button" className="gh-danger" onClick={() => setDialog('delete')} aria-label={t('webhooks.deleteNamed', { name })}>
            {t('webhooks.delete')}
          </button>
        </div>
        {test.data ? (
          <p role="status" className={test.data.success ? 'dash-success' : 'dash-error'}>
            {test.data.success
              ? t('webhooks.testAccepted')
              : t('webhooks.testFailed', { reason: test.data.error_message ?? t('webhooks.noAnswer') })}
          </p>
        ) : null}
        <ErrorMessage error={test.error ?? update.error} />
        {editing ? <EditEndpoint endpoint={endpoint} onDone={() => setEditing(false)} /> : null}
      </div>
      <ConfirmDialog
        open={dialog === 'delete'}
        title={t('webhooks.deleteTitle')}
        confirmLabel={t('webhooks.deleteConfirm')}
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
        <p>{t('webhooks.deleteExplained', { url: endpoint.url })}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'rotate'}
        title={t('webhooks.rotateTitle')}
        confirmLabel={t('webhooks.rotateSecret')}
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
        <p>{t('webhooks.rotateExplained')}</p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
    </li>
  );
}

function EditEndpoint({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone: () => void }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const update = api.useUpdateWebhookEndpoint({ request });
  const { t } = useDashboardTranslation();
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
    <form className="dash-form" onSubmit={submit} aria-label={t('webhooks.editNamed', { url: endpoint.url })}>
      <div className="dash-grid-2">
        <TextField
          label={t('webhooks.newUrl')}
          name="url"
          type="url"
          required
          value={form.url}
          onChange={(event) => setForm({ ...form, url: event.target.value })}
        />
        <TextField
          label={t('webhooks.newDescription')}
          name="description"
          value={form.description}
          onChange={(event) => setForm({ ...form, description: event.target.value })}
        />
      </div>
      <TextField
        label={t('webhooks.newEventTypes')}
        name="event_types"
        hint={t('webhooks.newEventTypesHint')}
        value={form.eventTypes}
        onChange={(event) => setForm({ ...form, eventTypes: event.target.value })}
      />
      <ErrorMessage error={update.error} />
      <div className="dash-row">
        <button type="submit" className="gh-primary" disabled={update.isPending}>
          {update.isPending ? t('webhooks.saving') : t('webhooks.save')}
        </button>
        <button type="button" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
