import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
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
  const [shown, setShown] = useState<(PortalToken & { at: number }) | null>(null);

  return (
    <Section
      title="Portal access"
      description="A token for managing this project's webhook endpoints (list, add, edit, test, delivery log) and nothing else, valid for one hour: give it to whoever runs the receiving side instead of an admin key."
    >
      <ErrorMessage error={create.error} />
      <div>
        <button
          type="button"
          disabled={create.isPending}
          onClick={() => create.mutate({ data: {} }, { onSuccess: (token) => setShown({ ...token, at: Date.now() }) })}
        >
          {create.isPending ? 'Creating…' : shown ? 'Create another portal token' : 'Create portal token'}
        </button>
      </div>
      {shown ? (
        <section className="dash-panel dash-created-keys" aria-label="Portal token">
          <dl>
            <div>
              <dt>Token</dt>
              <dd>
                <code>{shown.token}</code> <CopyButton value={shown.token} label="Copy the portal token" />
              </dd>
            </div>
            {shown.url ? (
              <div>
                <dt>Endpoints API</dt>
                <dd>
                  <code>{shown.url}</code> <CopyButton value={shown.url} label="Copy the endpoints API URL" />
                </dd>
              </div>
            ) : null}
            <div>
              <dt>Valid for</dt>
              <dd>one hour (until about {new Date(shown.at + 3_600_000).toLocaleTimeString()})</dd>
            </div>
          </dl>
          <p className="dash-muted">
            Send it as the admin key with the project's id:{' '}
            <code>x-stack-project-id: {projectId}, x-stack-access-type: admin, x-stack-super-secret-admin-key: &lt;token&gt;</code>. Other
            admin operations refuse it.
          </p>
          <button type="button" onClick={() => setShown(null)}>
            Hide the token
          </button>
        </section>
      ) : null}
    </Section>
  );
}
