import { useMutation } from '@tanstack/react-query';
import { passkeysSupported, registerPasskeyInBrowser } from '../../auth/passkeys.ts';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { getGetCurrentUserQueryKey } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { useUpdateUser } from '../../hooks/use-update-user.ts';
import { RequestError } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** Passkeys of the account: add one on this device, or remove them all (the protocol keeps no per-key list). */
export function PasskeysSection({ user }: { user: CurrentUser }) {
  const invalidate = useInvalidate();
  const { t } = useTranslation();
  const add = useMutation({ mutationFn: registerPasskeyInBrowser, onSuccess: invalidate(getGetCurrentUserQueryKey()) });
  const update = useUpdateUser();
  return (
    <section aria-labelledby="gh-passkeys">
      <h2 id="gh-passkeys">{t('account.tabPasskeys')}</h2>
      {passkeysSupported() ? null : <p className="gh-error">{t('passkeys.unsupported')}</p>}
      <p className={user.passkey_auth_enabled ? 'gh-success' : 'gh-muted'} role="status">
        {user.passkey_auth_enabled ? t('passkeys.on') : t('passkeys.none')}
      </p>
      <div className="gh-row">
        <button type="button" className="gh-primary" disabled={add.isPending || !passkeysSupported()} onClick={() => add.mutate()}>
          {t('passkeys.add')}
        </button>
        {user.passkey_auth_enabled ? (
          <button
            type="button"
            className="gh-danger"
            disabled={update.isPending}
            onClick={() => update.mutate({ data: { passkey_auth_enabled: false } })}
          >
            {t('passkeys.removeAll')}
          </button>
        ) : null}
      </div>
      <RequestError error={add.error ?? update.error} />
    </section>
  );
}
