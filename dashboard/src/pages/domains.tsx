import { type AdminProject, api, Link } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { dashboardUrlOf } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ErrorMessage, errorText, PageHeader, Section, TextField } from '../ui.tsx';
import { useProjectUpdate } from './project-config.ts';

/**
 * Where the project's apps live: trusted domains with their handler paths, localhost callbacks, and
 * production mode, whose refusal names the failing check and the page that fixes it (shown as a link).
 */
export function DomainsPage() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  return (
    <>
      <PageHeader title="Domains and handler" />
      <ProductionMode project={project} />
      <TrustedDomains project={project} />
    </>
  );
}

function ProductionMode({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const { config } = project;
  return (
    <Section
      title="Production mode"
      description="In production, callbacks go only to trusted HTTPS domain names: no localhost, no IP addresses, no shared OAuth keys."
    >
      <p>
        This project is in <strong>{project.is_production_mode ? 'production' : 'development'}</strong> mode.
      </p>
      <div className="dash-row">
        <button
          type="button"
          className={project.is_production_mode ? undefined : 'gh-primary'}
          disabled={update.isPending}
          onClick={() => update.mutate({ data: { is_production_mode: !project.is_production_mode } })}
        >
          {project.is_production_mode ? 'Back to development mode' : 'Turn on production mode'}
        </button>
      </div>
      {update.error ? <CheckFailure message={errorText(update.error)} /> : null}
      <Checkbox
        label="Allow localhost callbacks (development)"
        checked={config.allow_localhost}
        onChange={(on) => update.mutate({ data: { config: { allow_localhost: on } } })}
      />
    </Section>
  );
}

/** A failing production check: its message, with the dashboard page it names turned into a link. */
function CheckFailure({ message }: { message: string }) {
  const match = message.match(/(\/projects\/[^\s]+\/[a-z-]+?)\.?$/);
  if (!match) {
    return (
      <p role="alert" className="dash-error">
        {message}
      </p>
    );
  }
  const path = match[1]!;
  const before = message.slice(0, message.lastIndexOf(path));
  return (
    <p role="alert" className="dash-error">
      {before}
      <Link href={dashboardUrlOf(path)}>{path}</Link>.
    </p>
  );
}

function TrustedDomains({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const [domain, setDomain] = useState('');
  const [handlerPath, setHandlerPath] = useState('/handler');
  const domains = project.config.domains;

  const save = (next: Array<{ domain: string; handler_path: string }>, onSuccess?: () => void) =>
    update.mutate({ data: { config: { domains: next } } }, { onSuccess });

  function submit(event: FormEvent) {
    event.preventDefault();
    save([...domains, { domain: domain.trim(), handler_path: handlerPath.trim() || '/handler' }], () => {
      setDomain('');
      setHandlerPath('/handler');
    });
  }

  return (
    <Section
      title="Trusted domains"
      description="The origins users may be sent back to after signing in, each with the path of its handler pages."
    >
      {domains.length === 0 ? <p className="dash-muted">No trusted domains.</p> : null}
      <ul className="dash-list" aria-label="Trusted domains">
        {domains.map((entry) => (
          <li key={entry.domain}>
            <span>
              <code>{entry.domain}</code> <span className="dash-muted">handler at {entry.handler_path}</span>
            </span>
            <button
              type="button"
              className="gh-danger"
              aria-label={`Remove ${entry.domain}`}
              onClick={() => save(domains.filter((candidate) => candidate.domain !== entry.domain))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label="Domain"
          name="domain"
          placeholder="https://app.example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <TextField label="Handler path" name="handler-path" value={handlerPath} onChange={(event) => setHandlerPath(event.target.value)} />
        <button type="submit" disabled={update.isPending || !domain.trim()}>
          Add domain
        </button>
      </form>
      <ErrorMessage error={update.error} />
    </Section>
  );
}
