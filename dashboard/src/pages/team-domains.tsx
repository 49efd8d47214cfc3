import type { Schema } from '@gatehouse/protocol/operation-types';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { CopyButton } from '../copy-button.tsx';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, formatDate, Section, TextField } from '../ui.tsx';

type TeamDomain = Schema<'TeamDomain'>;
type Policy = Schema<'TeamDomainEnrolmentPolicy'>;

const policyLabels: Array<[Policy, string]> = [
  ['automatic', 'Join automatically'],
  ['suggestion', 'Suggest the team'],
  ['invitation_only', 'Invitation only'],
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
    <Section
      title="Verified domains"
      description="A domain proven by a DNS TXT record: its users can be sent to the team's SSO connection and join the team as its policy says."
    >
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label="Domain"
          name="team-domain"
          placeholder="example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <button type="submit" disabled={create.isPending || !domain.trim()}>
          Add domain
        </button>
      </form>
      <ErrorMessage error={create.error ?? domains.error} />
      {domains.data?.items.length === 0 ? <p className="dash-muted">No domains.</p> : null}
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
  return (
    <section className="dash-card dash-stack" aria-label={`Domain ${domain.domain}`}>
      <h3>
        {domain.domain}{' '}
        <span className="dash-badge">{domain.verified ? `verified ${formatDate(domain.verified_at_millis)}` : 'not verified'}</span>
      </h3>
      {domain.verified ? null : (
        <>
          <p className="dash-muted">Publish this TXT record in the domain's DNS, then verify.</p>
          <dl className="dash-facts">
            <dt>Name</dt>
            <dd>
              <code>{domain.verification_record_name}</code>{' '}
              <CopyButton value={domain.verification_record_name} label="Copy the record name" />
            </dd>
            <dt>Value</dt>
            <dd>
              <code>{domain.verification_record_value}</code>{' '}
              <CopyButton value={domain.verification_record_value} label="Copy the record value" />
            </dd>
          </dl>
        </>
      )}
      <div className="dash-row dash-toolbar">
        <div className="dash-field">
          <label htmlFor={policyId}>New users on {domain.domain}</label>
          <select
            id={policyId}
            value={domain.enrolment_policy}
            disabled={update.isPending}
            onChange={(event) =>
              update.mutate({ domainId: domain.id, data: { enrolment_policy: event.target.value as Policy } }, { onSuccess: onChanged })
            }
          >
            {policyLabels.map(([value, label]) => (
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
          {domain.verified ? 'Check again' : 'Verify'}
        </button>
        <button
          type="button"
          className="gh-danger"
          disabled={remove.isPending}
          onClick={() => remove.mutate({ domainId: domain.id }, { onSuccess: onChanged })}
        >
          Remove {domain.domain}
        </button>
      </div>
      <ErrorMessage error={verify.error ?? update.error ?? remove.error} />
    </section>
  );
}
