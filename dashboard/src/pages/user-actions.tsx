import { createCookieTokenStore } from '@gatehouse/client';
import { api, type ServerUser, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage } from '../ui.tsx';

/** A user's page's two actions on the whole account: open the app as them, delete them. */
export function ImpersonateButton({ user }: { user: ServerUser }) {
  const { projectId, request } = useProjectScope();
  const queryClient = useQueryClient();
  const impersonate = api.useCreateSession({ request });
  const { t } = useDashboardTranslation();
  return (
    <>
      <button
        type="button"
        disabled={impersonate.isPending}
        onClick={() =>
          impersonate.mutate(
            { data: { user_id: user.id, is_impersonation: true, expires_in_millis: 60 * 60 * 1000 } },
            {
              onSuccess: (tokens) => {
                createCookieTokenStore({ projectId }).set({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
                window.open('/', '_blank', 'noopener');
                void queryClient.invalidateQueries({ queryKey: api.getListSessionsQueryKey({ user_id: user.id }) });
              },
            },
          )
        }
      >
        {impersonate.isPending ? t('user.opening') : t('user.impersonate')}
      </button>
      <ErrorMessage error={impersonate.error} />
    </>
  );
}

export function DeleteUserButton({ user }: { user: ServerUser }) {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const remove = api.useDeleteUser({ request });
  const [open, setOpen] = useState(false);
  const { t } = useDashboardTranslation();
  return (
    <>
      <button type="button" className="gh-danger" onClick={() => setOpen(true)}>
        {t('user.delete')}
      </button>
      <ConfirmDialog
        open={open}
        title={t('user.deleteTitle')}
        confirmLabel={t('user.delete')}
        busy={remove.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          remove.mutate(
            { userId: user.id },
            {
              onSuccess: async () => {
                setOpen(false);
                await queryClient.invalidateQueries({ queryKey: [api.getListUsersQueryKey()[0]] });
                gatehouse.navigate(paths.project(projectId, 'users'));
              },
            },
          )
        }
      >
        <p>{t('user.deleteWarning', { name: user.primary_email ?? user.display_name ?? user.id })}</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
