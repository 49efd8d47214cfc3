import { type FormEvent, useState } from 'react';
import { getListUserApiKeysQueryKey, useCreateUserApiKey, useUpdateUserApiKey } from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { myApiKeysParams, useApiKeys } from '../../hooks/use-api-keys.ts';
import { Field, RequestError, SubmitButton } from '../../ui/form.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

/** The user's API keys: a new key's value is shown once; revoked keys stay listed as revoked. */
export function ApiKeysSection() {
  const keys = useApiKeys();
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const changed = { onSuccess: invalidate(getListUserApiKeysQueryKey(myApiKeysParams)) };
  const create = useCreateUserApiKey({ mutation: changed });
  const revoke = useUpdateUserApiKey({ mutation: changed });
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = description.trim() ? undefined : t('validate.descriptionMissing');
    setError(invalid);
    if (!invalid) create.mutate({ data: { user_id: 'me', description: description.trim() } }, { onSuccess: () => setDescription('') });
  };

  return (
    <section aria-labelledby="gh-api-keys">
      <h2 id="gh-api-keys">{t('account.tabApiKeys')}</h2>
      {create.data ? (
        <p className="gh-success" role="status">
          {t('apiKeys.copyNow')} <code>{create.data.value}</code>
        </p>
      ) : null}
      <ul className="gh-list">
        {keys.map((key) => (
          <li key={key.id}>
            <span>
              {key.description} <span className="gh-muted">…{key.value.last_four}</span>
            </span>
            {key.manually_revoked_at_millis ? (
              <span className="gh-muted">{t('apiKeys.revoked')}</span>
            ) : (
              <button
                type="button"
                className="gh-danger"
                onClick={() => revoke.mutate({ apiKeyId: key.id, data: { revoked: true }, params: myApiKeysParams })}
              >
                {t('apiKeys.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <RequestError error={revoke.error} />
      <form onSubmit={submit} noValidate aria-label={t('apiKeys.createAria')}>
        <Field
          label={t('apiKeys.description')}
          name="api-key-description"
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          error={error}
        />
        <RequestError error={create.error} />
        <SubmitButton pending={create.isPending}>{t('apiKeys.create')}</SubmitButton>
      </form>
    </section>
  );
}
