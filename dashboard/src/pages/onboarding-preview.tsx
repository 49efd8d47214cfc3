import type { OperationResponse } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { Checkbox, ConfirmDialog, ErrorMessage } from '../ui.tsx';
import { useProjectUpdate } from './project-config.ts';

type Affected = OperationResponse<'listOnboardingAffectedUsers', 200>;
const reasonsIn = (t: Translate): Record<Affected['affected_users'][number]['restricted_reason']['type'], string> => ({
  anonymous: t('onboarding.reasonAnonymous'),
  email_not_verified: t('onboarding.reasonUnverified'),
  restricted_by_administrator: t('onboarding.reasonAdmin'),
});
/** How many affected users the dialog names (the rest are counted). */
const previewLimit = 10;

/**
 * Requiring email verification restricts the existing users without a verified primary email, so
 * before it is turned on the server is asked who they are (preview-affected-users, nothing changed)
 * and the owner confirms with the first of them listed and the total counted. Turning it off
 * restricts nobody and is saved at once. The setting lives in the rendered config
 * (`onboarding.requireEmailVerification`), written through the project (`require_email_verification`).
 */
export function RequireEmailVerification() {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getGetProjectConfigQueryKey();
  const config = api.useGetProjectConfig({ request, query: { queryKey: key } });
  const preview = api.useListOnboardingAffectedUsers({ request });
  const update = useProjectUpdate();
  const [pending, setPending] = useState<boolean | null>(null);
  const [affected, setAffected] = useState<Affected | null>(null);
  const rendered = config.data ? (JSON.parse(config.data.config_string) as { onboarding?: { requireEmailVerification?: boolean } }) : null;
  const current = rendered?.onboarding?.requireEmailVerification ?? false;

  function save(on: boolean) {
    setAffected(null);
    setPending(on);
    update.mutate(
      { data: { require_email_verification: on } },
      {
        onSettled: async () => {
          await queryClient.invalidateQueries({ queryKey: key });
          setPending(null);
        },
      },
    );
  }

  function change(on: boolean) {
    if (!on) return save(false);
    preview.mutate(
      { data: { onboarding: { require_email_verification: true } }, params: { limit: String(previewLimit) } },
      { onSuccess: (answer) => (answer.total_affected_count === 0 ? save(true) : setAffected(answer)) },
    );
  }

  const total = affected?.total_affected_count ?? 0;
  const shown = affected?.affected_users.length ?? 0;
  const { t } = useDashboardTranslation();
  return (
    <>
      <Checkbox
        label={t('onboarding.requireVerification')}
        checked={pending ?? current}
        disabled={!rendered || preview.isPending || update.isPending}
        onChange={change}
      />
      {preview.isPending ? (
        <p role="status" className="dash-muted">
          {t('onboarding.looking')}
        </p>
      ) : null}
      <ErrorMessage error={preview.error ?? update.error ?? config.error} />
      <ConfirmDialog
        open={affected !== null}
        title={t('onboarding.confirmTitle')}
        confirmLabel={t('onboarding.confirm')}
        busy={update.isPending}
        onConfirm={() => save(true)}
        onClose={() => setAffected(null)}
      >
        <p>{total > shown ? t('onboarding.affectedFirst', { total, shown }) : t('onboarding.affected', { total })}</p>
        <ul className="dash-list" aria-label={t('onboarding.affectedList')}>
          {affected?.affected_users.map((user) => (
            <li key={user.id}>
              <span>{user.display_name || user.primary_email || user.id}</span>
              <span className="dash-muted">
                {user.display_name && user.primary_email ? `${user.primary_email} · ` : ''}
                {reasonsIn(t)[user.restricted_reason.type]}
              </span>
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </>
  );
}
