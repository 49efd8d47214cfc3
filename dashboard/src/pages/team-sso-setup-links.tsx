import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, formatDate, Section } from '../ui.tsx';

const statusWords: Record<Schema<'SsoSetupLink'>['status'], (t: Translate) => string> = {
  active: (t) => t('setupLinks.status.active'),
  used: (t) => t('setupLinks.status.used'),
  expired: (t) => t('setupLinks.status.expired'),
  revoked: (t) => t('setupLinks.status.revoked'),
};

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
  const { t } = useDashboardTranslation();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });

  return (
    <Section title={t('setupLinks.title')} description={t('setupLinks.description')}>
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
          {t('setupLinks.create')}
        </button>
      </div>
      <ErrorMessage error={create.error ?? links.error ?? revoke.error} />
      {created ? (
        <section className="dash-panel dash-created-keys" aria-label={t('setupLinks.new')}>
          <h3>{t('setupLinks.copyNow')}</h3>
          <p>{t('setupLinks.opensOnce', { date: formatDate(created.expires_at_millis) })}</p>
          <p>
            <code>{created.url}</code>
          </p>
          <div className="dash-row">
            <CopyButton value={created.url} label={t('setupLinks.copy')} />
            <button type="button" onClick={() => setCreated(null)}>
              {t('setupLinks.copied')}
            </button>
          </div>
        </section>
      ) : null}
      <ul className="dash-list" aria-label={t('setupLinks.list')}>
        {links.data?.items.map((link) => (
          <li key={link.id}>
            <span>
              {t('setupLinks.created', { date: formatDate(link.created_at_millis) })}{' '}
              <span className="dash-muted">({statusWords[link.status](t)})</span>
            </span>
            {link.status === 'active' || link.status === 'used' ? (
              <button
                type="button"
                className="gh-danger"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate({ teamId, setupLinkId: link.id }, { onSuccess: refresh })}
              >
                {t('setupLinks.revoke')}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </Section>
  );
}
