import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, PageHeader, Section, TableScroll } from '../ui.tsx';

type WebhookMessage = Schema<'WebhookMessage'>;

/** One endpoint's delivery log (refreshed every 2 s while open): each message with its attempts, and replay. */
export function WebhookLogPage({ endpointId }: { endpointId: string }) {
  const { request, projectId } = useProjectScope();
  const endpoint = api.useGetWebhookEndpointSuspense(endpointId, { request });
  const { t } = useDashboardTranslation();
  const messages = api.useListWebhookMessagesSuspense(endpointId, {
    request,
    query: { queryKey: api.getListWebhookMessagesQueryKey(endpointId), refetchInterval: 2000 },
  });
  return (
    <>
      <PageHeader title={t('webhooks.deliveryLog')}>
        <Link href={paths.project(projectId, 'webhooks')}>{t('webhookLog.allEndpoints')}</Link>
      </PageHeader>
      <p>
        <code>{endpoint.data.url}</code> {endpoint.data.enabled ? '' : <span className="dash-badge">{t('webhookLog.disabled')}</span>}
      </p>
      <Section title={t('webhookLog.messages')} description={t('webhookLog.description')}>
        {messages.data.items.length === 0 ? <p className="dash-muted">{t('webhookLog.none')}</p> : null}
        {messages.data.items.length > 0 ? (
          <TableScroll label={t('webhookLog.deliveries')}>
            <table aria-label={t('webhookLog.deliveries')}>
              <thead>
                <tr>
                  <th scope="col">{t('webhookLog.event')}</th>
                  <th scope="col">{t('webhookLog.status')}</th>
                  <th scope="col">{t('webhookLog.attempts')}</th>
                  <th scope="col">{t('webhookLog.lastAnswer')}</th>
                  <th scope="col">{t('webhookLog.latency')}</th>
                  <th scope="col">{t('webhookLog.response')}</th>
                  <th scope="col">{t('common.created')}</th>
                  <th scope="col">
                    <span className="dash-visually-hidden">{t('webhookLog.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {messages.data.items.map((message) => (
                  <MessageRow key={message.id} endpointId={endpointId} message={message} />
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </Section>
    </>
  );
}

function MessageRow({ endpointId, message }: { endpointId: string; message: WebhookMessage }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const replay = api.useSendWebhookMessageAgain({ request });
  const { t, formatDate, formatNumber } = useDashboardTranslation();
  const last = message.attempt_log.at(-1);
  return (
    <tr>
      <td>
        <code>{message.event_type}</code>
        <br />
        <span className="dash-muted dash-excerpt">{message.id}</span>
      </td>
      <td>
        <span className="dash-badge">{message.status}</span>
      </td>
      <td>{message.attempts}</td>
      <td>{last ? (last.status_code ?? last.error ?? t('webhooks.noAnswer')) : '—'}</td>
      <td>{last ? t('webhookLog.millis', { n: formatNumber(last.latency_millis) }) : '—'}</td>
      <td>
        <code className="dash-excerpt">{last?.response_excerpt.slice(0, 200) ?? ''}</code>
      </td>
      <td>{formatDate(message.created_at_millis)}</td>
      <td>
        <button
          type="button"
          disabled={replay.isPending}
          aria-label={t('webhookLog.replayNamed', { event: message.event_type, id: message.id })}
          onClick={() =>
            replay.mutate(
              { endpointId, messageId: message.id, data: {} },
              { onSuccess: () => queryClient.invalidateQueries({ queryKey: api.getListWebhookMessagesQueryKey(endpointId) }) },
            )
          }
        >
          {replay.isPending ? t('webhookLog.replaying') : t('webhookLog.replay')}
        </button>
        <ErrorMessage error={replay.error} />
      </td>
    </tr>
  );
}
