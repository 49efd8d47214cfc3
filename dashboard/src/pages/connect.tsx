import { api, type InternalApiKeyCreated, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { appKeySetBody, takeNewKeys } from '../new-keys.ts';
import { paths } from '../routes.ts';
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
  const values: ConnectValues = {
    baseUrl: gatehouse.baseUrl,
    projectId,
    publishableClientKey: keys?.publishable_client_key ?? '<your publishable client key>',
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
      <PageHeader title="Connect your app" />
      <p className="dash-muted dash-page-intro">Everything an app needs to sign its users in with this project.</p>
      <Section title="Where your app connects">
        <dl className="dash-connect-values">
          <Value label="Platform URL" value={values.baseUrl} />
          <Value label="Project id" value={projectId} />
        </dl>
      </Section>
      <Section title="Keys">
        {keys ? (
          <>
            <p role="note">
              Copy them now: they are stored as digests, so this is the only time they are shown. The secret server key stays on your
              servers (as <code>{secretKeyEnv.gatehouse}</code>), never in a browser bundle.
            </p>
            <dl className="dash-connect-values">
              <Value label="Publishable client key" value={keys.publishable_client_key ?? ''} />
              <Value label="Secret server key" value={keys.secret_server_key ?? ''} />
            </dl>
          </>
        ) : (
          <div className="dash-stack">
            <p>
              Keys are shown once, when they are made. Make a key set for this app (a publishable client key and a secret server key, valid
              for a year); see and revoke key sets under <Link href={paths.project(projectId, 'api-keys')}>API keys</Link>.
            </p>
            <ErrorMessage error={create.error} />
            <div>
              <button type="button" className="gh-primary" disabled={create.isPending} onClick={createKeys}>
                {create.isPending ? 'Creating…' : 'Create keys for this app'}
              </button>
            </div>
          </div>
        )}
      </Section>
      <Section title="With Gatehouse's SDK">
        <Snippet title="React (@gatehouse/react)" code={gatehouseReact(values)} />
        <Snippet title="Server, Node (@gatehouse/client)" code={gatehouseServer(values)} />
      </Section>
      <Section title="With Stack's SDK" description="Stack Auth's own SDKs work with this server unchanged: point their baseUrl here.">
        <Snippet title="React (@stackframe/react)" code={stackReact(values)} />
        <Snippet title="Server, Node (@stackframe/js)" code={stackServer(values)} />
      </Section>
    </>
  );
}

function Value({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <code>{value}</code>
        <CopyButton value={value} label={`Copy the ${label.toLowerCase()}`} />
      </dd>
    </div>
  );
}

function Snippet({ title, code }: { title: string; code: string }) {
  return (
    <figure className="dash-snippet">
      <figcaption>
        <h3>{title}</h3>
        <CopyButton value={code} label={`Copy the ${title} code`} />
      </figcaption>
      <pre className="dash-code">
        <code>{code}</code>
      </pre>
    </figure>
  );
}
