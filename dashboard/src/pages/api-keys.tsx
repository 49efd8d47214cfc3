import { api, Link, type InternalApiKey, type InternalApiKeyCreated } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { around } from '../i18n/around.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { Checkbox, ConfirmDialog, ErrorMessage, PageHeader, Section, TextField } from '../ui.tsx';

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
  const { t } = useDashboardTranslation();
  const [introBefore, introAfter] = around((mark) => t('apiKeys.intro', { page: mark }));

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
      <PageHeader title={t('nav.apiKeys')} />
      <p className="dash-muted dash-page-intro">
        {introBefore}
        <Link href={paths.project(projectId, 'auth')}>{t('nav.auth')}</Link>
        {introAfter}
      </p>
      <Section title={t('apiKeys.createSet')}>
        <form className="dash-form" onSubmit={submit}>
          <div className="dash-grid-2">
            <TextField
              label={t('apiKeys.description')}
              name="description"
              value={form.description}
              onChange={(event) => setForm({ ...form, description: event.target.value })}
            />
            <div className="dash-field">
              <label htmlFor="key-expiry">{t('apiKeys.expiresIn')}</label>
              <select id="key-expiry" value={form.days} onChange={(event) => setForm({ ...form, days: event.target.value })}>
                <option value="1">{t('apiKeys.days', { count: 1 })}</option>
                <option value="30">{t('apiKeys.days', { count: 30 })}</option>
                <option value="365">{t('apiKeys.years', { count: 1 })}</option>
                <option value="36500">{t('apiKeys.years', { count: 100 })}</option>
              </select>
            </div>
          </div>
          <fieldset className="dash-fieldset">
            <legend>{t('apiKeys.keysInSet')}</legend>
            <Checkbox
              label={t('apiKeys.publishable')}
              checked={form.publishable}
              onChange={(publishable) => setForm({ ...form, publishable })}
            />
            <Checkbox label={t('apiKeys.secret')} checked={form.secret} onChange={(secret) => setForm({ ...form, secret })} />
            <Checkbox label={t('apiKeys.admin')} checked={form.admin} onChange={(admin) => setForm({ ...form, admin })} />
          </fieldset>
          <ErrorMessage error={create.error} />
          <div>
            <button type="submit" className="gh-primary" disabled={create.isPending || !(form.publishable || form.secret || form.admin)}>
              {create.isPending ? t('newProject.creating') : t('apiKeys.createButton')}
            </button>
          </div>
        </form>
      </Section>
      {created ? <CreatedKeys keySet={created} onDone={() => setCreated(null)} /> : null}
      <Section title={t('apiKeys.sets')}>
        {keys.data.items.length === 0 ? <p className="dash-muted">{t('apiKeys.none')}</p> : null}
        <ul className="dash-list" aria-label={t('apiKeys.sets')}>
          {keys.data.items.map((keySet) => (
            <KeySetRow key={keySet.id} keySet={keySet} />
          ))}
        </ul>
      </Section>
    </>
  );
}

function CreatedKeys({ keySet, onDone }: { keySet: InternalApiKeyCreated; onDone: () => void }) {
  const { t } = useDashboardTranslation();
  const entries: Array<[string, string | undefined]> = [
    [t('apiKeys.publishable'), keySet.publishable_client_key],
    [t('apiKeys.secret'), keySet.secret_server_key],
    [t('apiKeys.admin'), keySet.super_secret_admin_key],
  ];
  return (
    <section className="dash-panel dash-created-keys" aria-label={t('apiKeys.newKeys')}>
      <h2>{t('apiKeys.copyNow')}</h2>
      <p>{t('apiKeys.shownOnce')}</p>
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
        {t('apiKeys.copied')}
      </button>
    </section>
  );
}

function statusOf(keySet: InternalApiKey, t: Translate, formatDate: (millis: number) => string): string {
  if (keySet.expires_at_millis < Date.now()) return t('apiKeys.expired');
  if (keySet.manually_revoked_at_millis) return t('apiKeys.revokedAt', { when: formatDate(keySet.manually_revoked_at_millis) });
  return t('apiKeys.validUntil', { when: formatDate(keySet.expires_at_millis) });
}

function KeySetRow({ keySet }: { keySet: InternalApiKey }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListInternalApiKeysQueryKey();
  const revoke = api.useUpdateInternalApiKey({ request });
  const [open, setOpen] = useState(false);
  const { t, formatDate } = useDashboardTranslation();
  const lastFours = [
    keySet.publishable_client_key ? `pck …${keySet.publishable_client_key.last_four}` : null,
    keySet.secret_server_key ? `ssk …${keySet.secret_server_key.last_four}` : null,
    keySet.super_secret_admin_key ? `sak …${keySet.super_secret_admin_key.last_four}` : null,
  ].filter(Boolean);
  const active = !keySet.manually_revoked_at_millis && keySet.expires_at_millis >= Date.now();
  return (
    <li>
      <span>
        <strong>{keySet.description || t('apiKeys.keySet')}</strong> <code className="dash-muted">{lastFours.join(' · ')}</code>
        <br />
        <span className="dash-muted">
          {t('apiKeys.createdAt', { when: formatDate(keySet.created_at_millis) })} · {statusOf(keySet, t, formatDate)}
        </span>
      </span>
      {active ? (
        <button
          type="button"
          className="gh-danger"
          onClick={() => setOpen(true)}
          aria-label={t('apiKeys.revokeLabel', { name: keySet.description || t('apiKeys.keySetLower') })}
        >
          {t('apiKeys.revoke')}
        </button>
      ) : null}
      <ConfirmDialog
        open={open}
        title={t('apiKeys.revokeTitle')}
        confirmLabel={t('apiKeys.revokeKeys')}
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
        <p>{t('apiKeys.revokeWarning')}</p>
        <ErrorMessage error={revoke.error} />
      </ConfirmDialog>
    </li>
  );
}
