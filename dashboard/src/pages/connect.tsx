import { api, type InternalApiKeyCreated, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { appKeySetBody, takeNewKeys } from '../new-keys.ts';
import { paths } from '../routes.ts';
import { around } from '../i18n/around.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, PageHeader, Section } from '../ui.tsx';
import { type ConnectValues, gatehouseReact, gatehouseServer, secretKeyEnv, stackReact, stackServer } from './connect-snippets.ts';

/**
 * What an app needs to use the project, on one page: the platform's URL, the project id, a key set (shown
 * once: the keys are stored as digests) and the code to paste for Gatehouse's SDK and for Stack's. A new
 * project lands here with the key set made with it; later visits make a new set on request.
 */
export function ConnectPage() {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const [keys, setKeys] = useState<InternalApiKeyCreated | undefined>(() => takeNewKeys(projectId));
  const create = api.useCreateInternalApiKey({ request });
  const { t } = useDashboardTranslation();
  const [copyBefore, copyAfter] = around((mark) => t('connect.copyNow', { env: mark }));
  const [makeBefore, makeAfter] = around((mark) => t('connect.makeKeys', { page: mark }));
  const values: ConnectValues = {
    baseUrl: gatehouse.baseUrl,
    projectId,
    publishableClientKey: keys?.publishable_client_key ?? t('connect.keyPlaceholder'),
  };

  function createKeys() {
    create.mutate(
      { data: appKeySetBody('Connect your app') },
      {
        onSuccess: (keySet) => {
          setKeys(keySet);
          void queryClient.invalidateQueries({ queryKey: api.getListInternalApiKeysQueryKey() });
        },
      },
    );
  }

  return (
    <>
      <PageHeader title={t('nav.connect')} />
      <p className="dash-muted dash-page-intro">{t('connect.intro')}</p>
      <Section title={t('connect.where')}>
        <dl className="dash-connect-values">
          <Value label={t('connect.platformUrl')} value={values.baseUrl} />
          <Value label={t('connect.projectId')} value={projectId} />
        </dl>
      </Section>
      <Section title={t('connect.keys')}>
        {keys ? (
          <>
            <p role="note">
              {copyBefore}
              <code>{secretKeyEnv.gatehouse}</code>
              {copyAfter}
            </p>
            <dl className="dash-connect-values">
              <Value label={t('apiKeys.publishable')} value={keys.publishable_client_key ?? ''} />
              <Value label={t('apiKeys.secret')} value={keys.secret_server_key ?? ''} />
            </dl>
          </>
        ) : (
          <div className="dash-stack">
            <p>
              {makeBefore}
              <Link href={paths.project(projectId, 'api-keys')}>{t('nav.apiKeys')}</Link>
              {makeAfter}
            </p>
            <ErrorMessage error={create.error} />
            <div>
              <button type="button" className="gh-primary" disabled={create.isPending} onClick={createKeys}>
                {create.isPending ? t('newProject.creating') : t('connect.createKeys')}
              </button>
            </div>
          </div>
        )}
      </Section>
      <Section title={t('connect.withGatehouse')}>
        <Snippet title={t('connect.react', { package: '@gatehouse/react' })} code={gatehouseReact(values)} />
        <Snippet title={t('connect.serverNode', { package: '@gatehouse/client' })} code={gatehouseServer(values)} />
      </Section>
      <Section title={t('connect.withStack')} description={t('connect.stackDescription')}>
        <Snippet title={t('connect.react', { package: '@stackframe/react' })} code={stackReact(values)} />
        <Snippet title={t('connect.serverNode', { package: '@stackframe/js' })} code={stackServer(values)} />
      </Section>
    </>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  const { t, language } = useDashboardTranslation();
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
        <CopyButton value={value} label={t('connect.copyValue', { label: language === 'en' ? label.toLowerCase() : label })} />
      </dd>
    </div>
  );
}

function Snippet({ title, code }: { title: string; code: string }) {
  const { t } = useDashboardTranslation();
  return (
    <figure className="dash-snippet">
      <figcaption>
        <h3>{title}</h3>
        <CopyButton value={code} label={t('connect.copyCode', { title })} />
      </figcaption>
      <pre className="dash-code">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
