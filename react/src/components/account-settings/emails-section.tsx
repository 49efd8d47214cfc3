import { type FormEvent, useState } from 'react';
import { absoluteUrl } from '../../absolute-url.ts';
import { useGatehouse } from '../../gatehouse-context.ts';
import {
  getGetCurrentUserQueryKey,
  getListContactChannelsQueryKey,
  useCreateContactChannel,
  useDeleteContactChannel,
  useSendContactChannelVerificationCode,
  useUpdateContactChannel,
} from '../../generated/hooks.ts';
import { useInvalidate } from '../../hooks/invalidate.ts';
import { myContactChannelsParams, useContactChannels } from '../../hooks/use-contact-channels.ts';
import { RequestError, SubmitButton, useValidate } from '../../ui/form.tsx';
import { EmailField } from '../../ui/fields.tsx';
import { useTranslation } from '../../i18n/i18n-context.ts';

export function EmailsSection() {
  const { urls } = useGatehouse();
  const validate = useValidate();
  const { t } = useTranslation();
  const channels = useContactChannels();
  const invalidate = useInvalidate();
  const changed = { onSuccess: invalidate(getListContactChannelsQueryKey(myContactChannelsParams), getGetCurrentUserQueryKey()) };
  const create = useCreateContactChannel({ mutation: changed });
  const update = useUpdateContactChannel({ mutation: changed });
  const remove = useDeleteContactChannel({ mutation: changed });
  const sendVerification = useSendContactChannelVerificationCode();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string>();

  const add = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validate.email(email);
    setEmailError(invalid);
    if (invalid) return;
    create.mutate({ data: { user_id: 'me', type: 'email', value: email.trim(), used_for_auth: false } }, { onSuccess: () => setEmail('') });
  };

  return (
    <section aria-labelledby="gh-emails">
      <h2 id="gh-emails">{t('account.tabEmails')}</h2>
      <ul className="gh-list">
        {channels.map((channel) => (
          <li key={channel.id}>
            <span>
              {channel.value} {channel.is_primary ? <strong>{t('emails.primary')}</strong> : null}{' '}
              <span className="gh-muted">{channel.is_verified ? t('emails.verified') : t('emails.notVerified')}</span>
            </span>
            <span className="gh-row">
              {channel.is_verified ? null : (
                <button
                  type="button"
                  onClick={() =>
                    sendVerification.mutate({
                      userId: 'me',
                      contactChannelId: channel.id,
                      data: { callback_url: absoluteUrl(urls.emailVerification) },
                    })
                  }
                >
                  {t('emails.sendVerification')}
                </button>
              )}
              {channel.is_primary ? null : (
                <>
                  <button
                    type="button"
                    onClick={() => update.mutate({ userId: 'me', contactChannelId: channel.id, data: { is_primary: true } })}
                  >
                    {t('emails.makePrimary')}
                  </button>
                  <button type="button" className="gh-danger" onClick={() => remove.mutate({ userId: 'me', contactChannelId: channel.id })}>
                    {t('emails.remove')}
                  </button>
                </>
              )}
            </span>
          </li>
        ))}
      </ul>
      {sendVerification.isSuccess ? (
        <p className="gh-success" role="status">
          {t('emails.verificationSent')}
        </p>
      ) : null}
      <RequestError error={sendVerification.error ?? update.error ?? remove.error} />
      <form onSubmit={add} noValidate aria-label={t('emails.add')}>
        <EmailField label={t('emails.add')} name="new-email" value={email} onChange={setEmail} error={emailError} />
        <RequestError error={create.error} />
        <SubmitButton pending={create.isPending}>{t('emails.addSubmit')}</SubmitButton>
      </form>
    </section>
  );
}
