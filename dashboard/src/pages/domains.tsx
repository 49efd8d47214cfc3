import { type AdminProject, api, Link } from '@gatehouse/react';
import { type FormEvent, useState } from 'react';
import { dashboardUrlOf } from '../routes.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
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
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('nav.domains')} />
      <ProductionMode project={project} />
      <TrustedDomains project={project} />
    </>
  );
}

function ProductionMode({ project }: { project: AdminProject }) {
  const update = useProjectUpdate();
  const { config } = project;
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('domains.productionMode')} description={t('domains.productionDescription')}>
      <p>{project.is_production_mode ? t('domains.inProduction') : t('domains.inDevelopment')}</p>
      <div className="dash-row">
        <button
          type="button"
          className={project.is_production_mode ? undefined : 'gh-primary'}
          disabled={update.isPending}
          onClick={() => update.mutate({ data: { is_production_mode: !project.is_production_mode } })}
        >
          {project.is_production_mode ? t('domains.backToDevelopment') : t('domains.turnOnProduction')}
        </button>
      </div>
      {update.error ? <CheckFailure message={errorText(update.error)} /> : null}
      <Checkbox
        label={t('domains.allowLocalhost')}
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
  const { t } = useDashboardTranslation();

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
    <Section title={t('domains.trusted')} description={t('domains.trustedDescription')}>
      {domains.length === 0 ? <p className="dash-muted">{t('domains.none')}</p> : null}
      <ul className="dash-list" aria-label={t('domains.trusted')}>
        {domains.map((entry) => (
          <li key={entry.domain}>
            <span>
              <code>{entry.domain}</code> <span className="dash-muted">{t('domains.handlerAt', { path: entry.handler_path })}</span>
            </span>
            <button
              type="button"
              className="gh-danger"
              aria-label={t('domains.removeLabel', { domain: entry.domain })}
              onClick={() => save(domains.filter((candidate) => candidate.domain !== entry.domain))}
            >
              {t('domains.remove')}
            </button>
          </li>
        ))}
      </ul>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField
          label={t('domains.domain')}
          name="domain"
          placeholder="https://app.example.com"
          value={domain}
          onChange={(event) => setDomain(event.target.value)}
        />
        <TextField
          label={t('domains.handlerPath')}
          name="handler-path"
          value={handlerPath}
          onChange={(event) => setHandlerPath(event.target.value)}
        />
        <button type="submit" disabled={update.isPending || !domain.trim()}>
          {t('domains.add')}
        </button>
      </form>
      <ErrorMessage error={update.error} />
    </Section>
  );
}
