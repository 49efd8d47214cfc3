import { api } from '@gatehouse/react';
import { type FormEvent, useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, Section, TextField } from '../ui.tsx';
import { SmtpTestEmail } from './email-server-test.tsx';
import { useProjectUpdate } from './project-config.ts';

/** Shared mail server or the project's own SMTP server (custom templates and sending need the latter). */
export function EmailServerSection() {
  const { request } = useProjectScope();
  const { data: project } = api.useGetAdminProjectSuspense({ request });
  const update = useProjectUpdate();
  const current = project.config.email_config;
  const [type, setType] = useState<'shared' | 'standard'>(current.type);
  const [fields, setFields] = useState({
    host: current.host ?? '',
    port: current.port === undefined ? '587' : String(current.port),
    username: current.username ?? '',
    password: current.password ?? '',
    sender_name: current.sender_name ?? '',
    sender_email: current.sender_email ?? '',
  });
  const [saved, setSaved] = useState(false);
  const groupId = useId();
  const { t } = useDashboardTranslation();
  const field = (name: keyof typeof fields, label: string, inputType = 'text') => (
    <TextField
      label={label}
      name={`smtp-${name}`}
      type={inputType}
      value={fields[name]}
      onChange={(event) => {
        setFields({ ...fields, [name]: event.target.value });
        setSaved(false);
      }}
    />
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setSaved(false);
    const email_config =
      type === 'shared'
        ? { type }
        : {
            type,
            host: fields.host.trim(),
            port: Number(fields.port),
            username: fields.username,
            password: fields.password,
            sender_name: fields.sender_name.trim(),
            sender_email: fields.sender_email.trim(),
          };
    update.mutate({ data: { config: { email_config } } }, { onSuccess: () => setSaved(true) });
  }

  return (
    <Section title={t('emailServer.title')} description={t('emailServer.description')}>
      <form className="dash-stack" onSubmit={submit}>
        <fieldset className="dash-fieldset" aria-labelledby={groupId}>
          <span id={groupId} className="dash-muted">
            {t('emailServer.server')}
          </span>
          <div className="dash-check">
            <input
              id={`${groupId}-shared`}
              type="radio"
              name="email-server"
              checked={type === 'shared'}
              onChange={() => setType('shared')}
            />
            <label htmlFor={`${groupId}-shared`}>{t('emailServer.shared')}</label>
          </div>
          <div className="dash-check">
            <input
              id={`${groupId}-standard`}
              type="radio"
              name="email-server"
              checked={type === 'standard'}
              onChange={() => setType('standard')}
            />
            <label htmlFor={`${groupId}-standard`}>{t('emailServer.own')}</label>
          </div>
        </fieldset>
        {type === 'standard' ? (
          <div className="dash-grid-3">
            {field('host', t('emailServer.host'))}
            {field('port', t('emailServer.port'), 'number')}
            {field('username', t('emailServer.username'))}
            {field('password', t('emailServer.password'), 'password')}
            {field('sender_name', t('emailServer.senderName'))}
            {field('sender_email', t('emailServer.senderEmail'), 'email')}
          </div>
        ) : null}
        <div className="dash-row">
          <button type="submit" disabled={update.isPending}>
            {update.isPending ? t('settings.saving') : t('emailServer.save')}
          </button>
          {saved ? (
            <span role="status" className="dash-success">
              {t('emailServer.saved')}
            </span>
          ) : null}
        </div>
        <ErrorMessage error={update.error} />
      </form>
      {type === 'standard' ? <SmtpTestEmail server={fields} /> : null}
    </Section>
  );
}
