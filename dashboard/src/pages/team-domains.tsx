import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, formatDate, Section, TextField } from '../ui.tsx';

type TeamDomain = Schema<'TeamDomain'>;
type Policy = Schema<'TeamDomainEnrolmentPolicy'>;

const policyLabels = (t: Translate): Array<[Policy, string]> => [
  ['automatic', t('teamDomains.automatic')],
  ['suggestion', t('teamDomains.suggestion')],
  ['invitation_only', t('teamDomains.invitationOnly')],
];

/**
 * A team's email domains: claim one, publish the TXT record shown, verify (checked against DNS again each
 * time; a removed record unverifies), choose what a new user on the domain gets, and remove.
 */
export function TeamDomains({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListTeamDomainsQueryKey({ team_id: teamId });
  const domains = api.useListTeamDomains({ team_id: teamId }, { request });
  const create = api.useCreateTeamDomain({ request });
  const [domain, setDomain] = useState('');
  const { t } = useDashboardTranslation();

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { data: { team_id: teamId, domain: domain.trim() } },
      {
        onSuccess: () => {
          setDomain('');
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section title={t('teamDomains.title')} description={t('teamDomains.description')}>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label={t('teamDomains.domain')}
          name="team-domain"
          placeholder="example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <button type="submit" disabled={create.isPending || !domain.trim()}>
          {t('teamDomains.add')}
        </button>
      </form>
      <ErrorMessage error={create.error ?? domains.error} />
      {domains.data?.items.length === 0 ? <p className="dash-muted">{t('teamDomains.none')}</p> : null}
      {domains.data?.items.map((item) => (
        <DomainCard key={item.id} domain={item} onChanged={() => void queryClient.invalidateQueries({ queryKey: key })} />
      ))}
    </Section>
  );
}

function DomainCard({ domain, onChanged }: { domain: TeamDomain; onChanged: () => void }) {
  const { request } = useProjectScope();
  const verify = api.useVerifyTeamDomain({ request });
  const update = api.useUpdateTeamDomain({ request });
  const remove = api.useDeleteTeamDomain({ request });
  const policyId = useId();
  const { t } = useDashboardTranslation();
  return (
    <section className="dash-card dash-stack" aria-label={t('teamDomains.cardLabel', { domain: domain.domain })}>
      <h3>
        {domain.domain}{' '}
        <span className="dash-badge">
          {domain.verified ? t('teamDomains.verifiedAt', { when: formatDate(domain.verified_at_millis) }) : t('teamDomains.notVerified')}
        </span>
      </h3>
      {domain.verified ? null : (
        <>
          <p className="dash-muted">{t('teamDomains.publish')}</p>
          <dl className="dash-facts">
            <dt>{t('teamDomains.recordName')}</dt>
            <dd>
              <code>{domain.verification_record_name}</code>{' '}
              <CopyButton value={domain.verification_record_name} label={t('teamDomains.copyName')} />
            </dd>
            <dt>{t('teamDomains.recordValue')}</dt>
            <dd>
              <code>{domain.verification_record_value}</code>{' '}
              <CopyButton value={domain.verification_record_value} label={t('teamDomains.copyValue')} />
            </dd>
          </dl>
        </>
      )}
      <div className="dash-row dash-toolbar">
        <div className="dash-field">
          <label htmlFor={policyId}>{t('teamDomains.newUsersOn', { domain: domain.domain })}</label>
          <select
            id={policyId}
            value={domain.enrolment_policy}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate({ domainId: domain.id, data: { enrolment_policy: event.target.value as Policy } }, { onSuccess: onChanged })
            }
          >
            {policyLabels(t).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          disabled={verify.isPending}
          onClick={() => verify.mutate({ domainId: domain.id }, { onSuccess: onChanged, onError: onChanged })}
        >
          {domain.verified ? t('teamDomains.checkAgain') : t('teamDomains.verify')}
        </button>
        <button
          type="button"
          className="gh-danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ domainId: domain.id }, { onSuccess: onChanged })}
        >
          {t('teamDomains.remove', { domain: domain.domain })}
        </button>
      </div>
      <ErrorMessage error={verify.error ?? update.error ?? remove.error} />
    </section>
  );
}
