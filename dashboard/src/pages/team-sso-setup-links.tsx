import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, formatDate, Section } from '../ui.tsx';

/**
 * Self-serve setup links of a team: the owner creates one (shown once) for the customer's IT admin, who opens it
 * without an account and configures the team's SSO connection, domains and SCIM directory; revoking ends it.
 */
export function SsoSetupLinks({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListSsoSetupLinksQueryKey(teamId);
  const links = api.useListSsoSetupLinks(teamId, { request });
  const create = api.useCreateSsoSetupLink({ request });
  const revoke = api.useRevokeSsoSetupLink({ request });
  const [created, setCreated] = useState<Schema<'SsoSetupLinkWithUrl'> | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });

  return (
    <Section
      title="Self-serve setup"
      description="A one-time link for the team's IT admin: they configure the team's SSO connection, domains and SCIM directory, nothing else."
    >
      <div className="dash-row dash-toolbar">
        <button
          type="button"
          disabled={create.isPending}
          onClick={() =>
            create.mutate(
              { teamId, data: {} },
              {
                onSuccess: (link) => {
                  setCreated(link);
                  refresh();
                },
              },
            )
          }
        >
          Create setup link
        </button>
      </div>
      <ErrorMessage error={create.error ?? links.error ?? revoke.error} />
      {created ? (
        <section className="dash-panel dash-created-keys" aria-label="New setup link">
          <h3>Copy the link now</h3>
          <p>It opens once, until {formatDate(created.expires_at_millis)}; it is shown only now.</p>
          <p>
            <code>{created.url}</code>
          </p>
          <div className="dash-row">
            <CopyButton value={created.url} label="Copy the setup link" />
            <button type="button" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </section>
      ) : null}
      <ul className="dash-list" aria-label="Setup links">
        {links.data?.items.map((link) => (
          <li key={link.id}>
            <span>
              Link created {formatDate(link.created_at_millis)} <span className="dash-muted">({link.status})</span>
            </span>
            {link.status === 'active' || link.status === 'used' ? (
              <button
                type="button"
                className="gh-danger"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ teamId, setupLinkId: link.id }, { onSuccess: refresh })}
              >
                Revoke setup link
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
