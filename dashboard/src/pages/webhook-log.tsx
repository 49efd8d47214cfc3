import type { Schema } from '@gatehouse/protocol/operation-types';
import { api, Link } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, formatDate, PageHeader, Section, TableScroll } from '../ui.tsx';

type WebhookMessage = Schema<'WebhookMessage'>;

/** One endpoint's delivery log (refreshed every 2 s while open): each message with its attempts, and replay. */
export function WebhookLogPage({ endpointId }: { endpointId: string }) {
  const { request, projectId } = useProjectScope();
  const endpoint = api.useGetWebhookEndpointSuspense(endpointId, { request });
  const messages = api.useListWebhookMessagesSuspense(endpointId, {
    request,
    query: { queryKey: api.getListWebhookMessagesQueryKey(endpointId), refetchInterval: 2000 },
  });
  return (
    <>
      <PageHeader title="Delivery log">
        <Link href={paths.project(projectId, 'webhooks')}>All endpoints</Link>
      </PageHeader>
      <p>
        <code>{endpoint.data.url}</code> {endpoint.data.enabled ? '' : <span className="dash-badge">disabled</span>}
      </p>
      <Section
        title="Messages"
        description="The newest 100, newest first. Failed attempts are retried after 5 s, 5 min, 30 min, 2 h, 5 h, then every 10 h (12 attempts); a replay sends the message again with the same webhook-id."
      >
        {messages.data.items.length === 0 ? <p className="dash-muted">No deliveries yet.</p> : null}
        {messages.data.items.length > 0 ? (
          <TableScroll label="Deliveries">
            <table aria-label="Deliveries">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Response</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="dash-visually-hidden">Actions</span>
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
      <td>{last ? (last.status_code ?? last.error ?? 'no answer') : '—'}</td>
      <td>{last ? `${last.latency_millis} ms` : '—'}</td>
      <td>
        <code className="dash-excerpt">{last?.response_excerpt.slice(0, 200) ?? ''}</code>
      </td>
      <td>{formatDate(message.created_at_millis)}</td>
      <td>
        <button
          type="button"
          disabled={replay.isPending}
          aria-label={`Replay ${message.event_type} ${message.id}`}
          onClick={() =>
            replay.mutate(
              { endpointId, messageId: message.id, data: {} },
              { onSuccess: () => queryClient.invalidateQueries({ queryKey: api.getListWebhookMessagesQueryKey(endpointId) }) },
            )
          }
        >
          {replay.isPending ? 'Replaying…' : 'Replay'}
        </button>
        <ErrorMessage error={replay.error} />
      </td>
    </tr>
  );
}
