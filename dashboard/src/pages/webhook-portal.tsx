import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, Section } from '../ui.tsx';

type PortalToken = Schema<'WebhookPortalToken'>;

/**
 * Access to the project's webhook endpoints for someone who should manage them and nothing else (Stack's
 * Svix app-portal token, POST /webhooks/svix-token): a token valid for one hour that stands in for the
 * admin key on the webhook operations only, where they live, and how to call them with it.
 */
export function WebhookPortalAccess() {
  const { request, projectId } = useProjectScope();
  const create = api.useCreateWebhookPortalToken({ request });
  const { t, language } = useDashboardTranslation();
  const [shown, setShown] = useState<(PortalToken & { at: number }) | null>(null);

  return (
    <Section title={t('webhookPortal.title')} description={t('webhookPortal.description')}>
      <ErrorMessage error={create.error} />
      <div>
        <button
          type="button"
          disabled={create.isPending}
          onClick={() => create.mutate({ data: {} }, { onSuccess: (token) => setShown({ ...token, at: Date.now() }) })}
        >
          {create.isPending ? t('webhookPortal.creating') : shown ? t('webhookPortal.createAnother') : t('webhookPortal.create')}
        </button>
      </div>
      {shown ? (
        <section className="dash-panel dash-created-keys" aria-label={t('webhookPortal.token')}>
          <dl>
            <div>
              <dt>{t('webhookPortal.tokenTerm')}</dt>
              <dd>
                <code>{shown.token}</code> <CopyButton value={shown.token} label={t('webhookPortal.copyToken')} />
              </dd>
            </div>
            {shown.url ? (
              <div>
                <dt>{t('webhookPortal.endpointsApi')}</dt>
                <dd>
                  <code>{shown.url}</code> <CopyButton value={shown.url} label={t('webhookPortal.copyUrl')} />
                </dd>
              </div>
            ) : null}
            <div>
              <dt>{t('webhookPortal.validFor')}</dt>
              <dd>
                {t('webhookPortal.oneHour', {
                  time: new Date(shown.at + 3_600_000).toLocaleTimeString(language === 'en-XA' ? 'en' : language),
                })}
              </dd>
            </div>
          </dl>
          <p className="dash-muted">
            {t('webhookPortal.howToSend')}{' '}
            <code>x-stack-project-id: {projectId}, x-stack-access-type: admin, x-stack-super-secret-admin-key: &lt;token&gt;</code>.{' '}
            {t('webhookPortal.othersRefuse')}
          </p>
          <button type="button" onClick={() => setShown(null)}>
            {t('webhookPortal.hide')}
          </button>
        </section>
      ) : null}
    </Section>
  );
}
