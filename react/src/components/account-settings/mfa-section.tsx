import { type FormEvent, useState } from 'react';
import { base32, base64, isValidTotp } from '../../auth/totp.ts';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { useCreateMfaRecoveryCodes } from '../../generated/hooks.ts';
import { useProject } from '../../hooks/use-project.ts';
import { useUpdateUser } from '../../hooks/use-update-user.ts';
import { Field, RequestError, SubmitButton } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/**
 * TOTP two-factor authentication: a new secret is shown (key and otpauth link for an authenticator
 * app), the first code is checked here, then MFA is turned on and ten recovery codes are shown once.
 */
export function MfaSection({ user }: { user: CurrentUser }) {
  const { display_name: projectName } = useProject();
  const update = useUpdateUser();
  const { t } = useTranslation();
  const recovery = useCreateMfaRecoveryCodes();
  const [secret, setSecret] = useState<Uint8Array<ArrayBuffer> | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!secret) return;
    if (!(await isValidTotp(secret, code))) {
      setError(t('totp.codeMismatch'));
      return;
    }
    setError(undefined);
    await update.mutateAsync({ data: { totp_secret_base64: base64(secret) } });
    await recovery.mutateAsync({ data: {} });
    setSecret(null);
    setCode('');
  };

  const codes = recovery.data?.recovery_codes;
  if (user.requires_totp_mfa) {
    return (
      <section aria-labelledby="gh-mfa">
        <h2 id="gh-mfa">{t('totp.title')}</h2>
        <p className="gh-success">{t('totp.on')}</p>
        {codes ? (
          <div className="gh-stack">
            <p>{t('totp.keepCodes')}</p>
            <ul className="gh-list" aria-label={t('totp.recoveryCodes')}>
              {codes.map((recoveryCode) => (
                <li key={recoveryCode}>
                  <code>{recoveryCode}</code>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <div className="gh-row">
          <button type="button" onClick={() => recovery.mutate({ data: {} })} disabled={recovery.isPending}>
            {t('totp.newRecoveryCodes')}
          </button>
          <button
            type="button"
            className="gh-danger"
            onClick={() => update.mutate({ data: { totp_secret_base64: null } })}
            disabled={update.isPending}
          >
            {t('totp.turnOff')}
          </button>
        </div>
        <RequestError error={update.error ?? recovery.error} />
      </section>
    );
  }

  if (!secret) {
    return (
      <section aria-labelledby="gh-mfa">
        <h2 id="gh-mfa">{t('totp.title')}</h2>
        <p className="gh-muted">{t('totp.explain')}</p>
        <button type="button" className="gh-primary" onClick={() => setSecret(crypto.getRandomValues(new Uint8Array(20)))}>
          {t('totp.turnOnFull')}
        </button>
      </section>
    );
  }
  const key = base32(secret);
  const label = encodeURIComponent(`${projectName}:${user.primary_email ?? user.id}`);
  const otpauth = `otpauth://totp/${label}?secret=${key}&issuer=${encodeURIComponent(projectName)}`;
  return (
    <section aria-labelledby="gh-mfa">
      <h2 id="gh-mfa">{t('totp.title')}</h2>
      <form onSubmit={(event) => void confirm(event).catch(() => undefined)} noValidate aria-label={t('totp.turnOnFull')}>
        <p>
          {t('totp.addKey')} <a href={otpauth}>{t('totp.openInApp')}</a>
        </p>
        <p>
          {t('totp.keyLabel')} <code data-testid="totp-secret">{key}</code>
        </p>
        <Field
          label={t('totp.code')}
          name="totp"
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={error}
        />
        <RequestError error={update.error ?? recovery.error} />
        <SubmitButton pending={update.isPending || recovery.isPending}>{t('totp.turnOn')}</SubmitButton>
      </form>
    </section>
  );
}
