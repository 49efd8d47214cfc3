import type { Schema } from '@gatehouse/protocol/operation-types';
import { EmailNotEditableError } from '@gatehouse/protocol/errors';
import { api, Link } from '@gatehouse/react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { PagedTable, useUrlPaging } from '../pager.tsx';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ErrorMessage, formatDate, Loading, PageHeader, Section, TableScroll, TextField } from '../ui.tsx';

type OutboxEntry = Schema<'EmailOutboxEntry'>;

export const OUTBOX_PAGE_SIZE = 10;
const statuses = ['queued', 'sending', 'sent', 'failed', 'skipped'] as const;
/** An email that is not sending or sent can still be changed, sent (again) or cancelled. */
const editable = (entry: OutboxEntry) => entry.status === 'queued' || entry.status === 'failed' || entry.status === 'skipped';

/** A status in the active language (the filter's values stay the API's). */
function statusText(status: OutboxEntry['status'], t: Translate): string {
  if (status === 'queued') return t('outbox.statusQueued');
  if (status === 'sending') return t('outbox.statusSending');
  if (status === 'sent') return t('outbox.statusSent');
  if (status === 'failed') return t('outbox.statusFailed');
  return t('outbox.statusSkipped');
}

/** Drops the cached lists after a change, so the sent list and the outbox show it. */
function useForgetLists() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: [api.getListOutboxEmailsQueryKey()[0]] }),
      queryClient.invalidateQueries({ queryKey: api.getListSentEmailsQueryKey() }),
      queryClient.invalidateQueries({ queryKey: api.getGetEmailDeliveryInfoQueryKey() }),
    ]);
}

/**
 * What the project's emails did: delivery figures, the sent list (the newest 100 sent or tried, with
 * the last error) and the whole outbox by status in keyset pages (filter and cursor in the URL). Each
 * email opens at its own URL (`email-outbox/<id>`), where one that was not sent can be changed.
 */
export function EmailOutboxPage() {
  const { projectId } = useProjectScope();
  const { t } = useDashboardTranslation();
  return (
    <>
      <PageHeader title={t('emails.outboxLink')}>
        <Link href={paths.project(projectId, 'emails')}>{t('emailEditor.allEmails')}</Link>
      </PageHeader>
      <DeliveryInfo />
      <SentEmails />
      <Outbox />
    </>
  );
}

function DeliveryInfo() {
  const { request } = useProjectScope();
  const info = api.useGetEmailDeliveryInfo({ request });
  const { t, formatNumber } = useDashboardTranslation();
  const windows = [
    [t('outbox.lastHour'), 'hour'],
    [t('outbox.lastDay'), 'day'],
    [t('outbox.lastWeek'), 'week'],
    [t('outbox.last30Days'), 'month'],
  ] as const;
  return (
    <Section title={t('outbox.delivery')} description={t('outbox.deliveryDescription')}>
      {info.isPending ? <Loading /> : null}
      <ErrorMessage error={info.error} />
      {info.data ? (
        <dl className="dash-stats dash-stats-wide dash-facts">
          {windows.map(([label, window]) => (
            <div key={window} className="dash-card">
              <dt>{label}</dt>
              <dd className="dash-stat">{formatNumber(info.data.stats[window].sent)}</dd>
            </div>
          ))}
          <div className="dash-card">
            <dt>{t('outbox.rate')}</dt>
            <dd className="dash-stat">{t('outbox.perSecond', { n: info.data.capacity.rate_per_second.toFixed(2) })}</dd>
          </div>
        </dl>
      ) : null}
    </Section>
  );
}

function SentEmails() {
  const { projectId, request } = useProjectScope();
  const sent = api.useListSentEmails({ request, query: { queryKey: api.getListSentEmailsQueryKey(), refetchInterval: 5000 } });
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('outbox.sent')} description={t('outbox.sentDescription')}>
      {sent.isPending ? <Loading /> : null}
      <ErrorMessage error={sent.error} />
      {sent.data && sent.data.items.length === 0 ? <p className="dash-muted">{t('outbox.noneSent')}</p> : null}
      {sent.data && sent.data.items.length > 0 ? (
        <TableScroll label={t('outbox.sentEmails')}>
          <table aria-label={t('outbox.sentEmails')}>
            <thead>
              <tr>
                <th scope="col">{t('outbox.to')}</th>
                <th scope="col">{t('outbox.subject')}</th>
                <th scope="col">{t('outbox.sentAt')}</th>
                <th scope="col">{t('outbox.error')}</th>
              </tr>
            </thead>
            <tbody>
              {sent.data.items.map((email) => (
                <tr key={email.id}>
                  <td>{email.to.join(', ') || '—'}</td>
                  <td>
                    <Link href={paths.project(projectId, 'email-outbox', email.id)}>{email.subject || t('outbox.noSubject')}</Link>
                  </td>
                  <td>{email.sent_at_millis === null ? t('emails.notSent') : formatDate(email.sent_at_millis)}</td>
                  <td className="dash-excerpt">{email.error ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </Section>
  );
}

function Outbox() {
  const { projectId, request } = useProjectScope();
  const paging = useUrlPaging();
  const status = paging.filter('status') as '' | OutboxEntry['status'];
  const params = { limit: OUTBOX_PAGE_SIZE, ...(status ? { status } : {}), ...(paging.cursor ? { cursor: paging.cursor } : {}) };
  const outbox = api.useListOutboxEmails(params, {
    request,
    query: { queryKey: api.getListOutboxEmailsQueryKey(params), placeholderData: keepPreviousData, refetchInterval: 5000 },
  });
  const { t } = useDashboardTranslation();
  return (
    <Section title={t('outbox.outbox')} description={t('outbox.outboxDescription')}>
      <PagedTable
        label={t('outbox.outbox')}
        pagerLabel={t('outbox.pagerLabel')}
        paging={paging}
        rows={outbox.data?.items}
        nextCursor={outbox.data?.pagination?.next_cursor}
        fetching={outbox.isFetching}
        placeholder={outbox.isPlaceholderData}
        error={outbox.error}
        emptyText={status ? t('outbox.noneWithStatus', { status: statusText(status, t) }) : t('outbox.empty')}
        rowKey={(email) => email.id}
        filters={
          <div className="dash-field">
            <label htmlFor="outbox-status">{t('outbox.status')}</label>
            <select id="outbox-status" value={status} onChange={(event) => paging.setFilter('status', event.target.value)}>
              <option value="">{t('outbox.anyStatus')}</option>
              {statuses.map((value) => (
                <option key={value} value={value}>
                  {statusText(value, t)}
                </option>
              ))}
            </select>
          </div>
        }
        columns={[
          { header: t('outbox.to'), cell: (email) => email.to.join(', ') || '—' },
          {
            header: t('outbox.subject'),
            cell: (email) => (
              <Link href={paths.project(projectId, 'email-outbox', email.id)}>{email.subject || t('outbox.noSubject')}</Link>
            ),
          },
          { header: t('outbox.status'), cell: (email) => <span className="dash-badge">{statusText(email.status, t)}</span> },
          { header: t('webhookLog.attempts'), cell: (email) => email.attempts },
          { header: t('outbox.dueOrSent'), cell: (email) => formatDate(email.sent_at_millis ?? email.scheduled_at_millis) },
          { header: t('outbox.note'), cell: (email) => email.error ?? email.skipped_reason ?? '', className: 'dash-excerpt' },
        ]}
      />
    </Section>
  );
}

/**
 * One outbox email. While it is queued, failed or skipped its address and content can be changed, it
 * can be sent now (again) or cancelled; a change that arrives after a worker took it is refused with
 * EMAIL_NOT_EDITABLE, shown, and the page then shows what happened to it.
 */
export function OutboxEmailPage({ emailId }: { emailId: string }) {
  const { projectId, request } = useProjectScope();
  const queryClient = useQueryClient();
  const forgetLists = useForgetLists();
  const { t } = useDashboardTranslation();
  const key = api.getGetOutboxEmailQueryKey(emailId);
  const { data: email } = api.useGetOutboxEmailSuspense(emailId, {
    request,
    query: {
      queryKey: key,
      // Follow an email that is due until a worker has sent it (or given up).
      refetchInterval: (query) => {
        const entry = query.state.data;
        return entry && (entry.status === 'sending' || (entry.status === 'queued' && entry.scheduled_at_millis <= Date.now()))
          ? 1000
          : false;
      },
    },
  });
  const update = api.useUpdateOutboxEmail({
    request,
    mutation: {
      onSuccess: async (changed) => {
        queryClient.setQueryData(key, changed);
        await forgetLists();
      },
      onError: async (error) => {
        if (error instanceof EmailNotEditableError) await queryClient.invalidateQueries({ queryKey: key });
      },
    },
  });
  return (
    <>
      <PageHeader title={email.subject || t('outbox.noSubject')}>
        <Link href={paths.project(projectId, 'email-outbox')}>{t('emails.outboxLink')}</Link>
      </PageHeader>
      <Section title={t('outbox.delivery')}>
        <dl className="dash-grid-3 dash-facts">
          <div>
            <dt>{t('outbox.status')}</dt>
            <dd>
              <span className="dash-badge">{statusText(email.status, t)}</span>
            </dd>
          </div>
          <div>
            <dt>{t('webhookLog.attempts')}</dt>
            <dd>{email.attempts}</dd>
          </div>
          <div>
            <dt>{t('outbox.kind')}</dt>
            <dd>{email.kind}</dd>
          </div>
          <div>
            <dt>{t('common.created')}</dt>
            <dd>{formatDate(email.created_at_millis)}</dd>
          </div>
          <div>
            <dt>{t('outbox.due')}</dt>
            <dd>{formatDate(email.scheduled_at_millis)}</dd>
          </div>
          <div>
            <dt>{t('outbox.sentTerm')}</dt>
            <dd>{formatDate(email.sent_at_millis)}</dd>
          </div>
        </dl>
        {email.error ? <p className="dash-error">{t('outbox.lastError', { error: email.error })}</p> : null}
        {email.skipped_reason ? <p className="dash-muted">{t('outbox.skipped', { reason: email.skipped_reason })}</p> : null}
        {editable(email) ? (
          <div className="dash-row">
            <button
              type="button"
              className="gh-primary"
              disabled={update.isPending}
              onClick={() => update.mutate({ emailId, data: { status: 'queued' } })}
            >
              {t('outbox.sendNow')}
            </button>
            {email.status !== 'skipped' ? (
              <button type="button" disabled={update.isPending} onClick={() => update.mutate({ emailId, data: { status: 'skipped' } })}>
                {t('outbox.cancelEmail')}
              </button>
            ) : null}
          </div>
        ) : (
          <p className="dash-muted">{t('outbox.notEditable')}</p>
        )}
        <ErrorMessage error={update.error} />
      </Section>
      {editable(email) ? (
        <EditOutboxEmail
          key={email.id}
          email={email}
          busy={update.isPending}
          onSave={(data) => update.mutate({ emailId, data })}
          saved={update.isSuccess && update.variables?.data.status === undefined}
        />
      ) : (
        <Section title={t('outbox.content')}>
          {email.html ? (
            <iframe className="dash-email-frame" title={t('outbox.emailContent')} sandbox="" srcDoc={email.html} />
          ) : (
            <pre className="dash-code">{email.text || t('outbox.noContent')}</pre>
          )}
        </Section>
      )}
    </>
  );
}

type OutboxChange = { to?: string; subject?: string; html?: string; text?: string };

function EditOutboxEmail({
  email,
  busy,
  saved,
  onSave,
}: {
  email: OutboxEntry;
  busy: boolean;
  saved: boolean;
  onSave: (change: OutboxChange) => void;
}) {
  const [form, setForm] = useState({ to: email.to[0] ?? '', subject: email.subject, html: email.html, text: email.text });
  // A send-email row is rendered for its recipient when sent; changing its content means giving the HTML.
  const unrendered = email.html === '';
  const { t } = useDashboardTranslation();
  const contentChanged = form.subject !== email.subject || form.html !== email.html || form.text !== email.text;
  function submit(event: FormEvent) {
    event.preventDefault();
    const change: OutboxChange = {};
    if (form.to.trim() !== (email.to[0] ?? '')) change.to = form.to.trim();
    if (contentChanged) {
      Object.assign(change, { subject: form.subject, html: form.html, ...(form.text ? { text: form.text } : {}) });
    }
    onSave(change);
  }
  return (
    <Section title={t('outbox.content')} description={unrendered ? t('outbox.notRendered') : undefined}>
      <form className="dash-form" onSubmit={submit} aria-label={t('outbox.changeEmail')}>
        <div className="dash-grid-2">
          <TextField
            label={t('outbox.to')}
            name="to"
            type="email"
            required
            value={form.to}
            onChange={(event) => setForm({ ...form, to: event.target.value })}
          />
          <TextField
            label={t('outbox.subject')}
            name="subject"
            required
            value={form.subject}
            onChange={(event) => setForm({ ...form, subject: event.target.value })}
          />
        </div>
        <div className="dash-field">
          <label htmlFor="outbox-html">HTML</label>
          <textarea
            id="outbox-html"
            rows={8}
            required={unrendered && contentChanged}
            value={form.html}
            onChange={(event) => setForm({ ...form, html: event.target.value })}
          />
        </div>
        <div className="dash-field">
          <label htmlFor="outbox-text">{t('outbox.plainText')}</label>
          <textarea id="outbox-text" rows={4} value={form.text} onChange={(event) => setForm({ ...form, text: event.target.value })} />
        </div>
        <div className="dash-row">
          <button type="submit" disabled={busy}>
            {busy ? t('settings.saving') : t('outbox.saveChanges')}
          </button>
          {saved ? (
            <span role="status" className="dash-success">
              {t('settings.saved')}
            </span>
          ) : null}
        </div>
      </form>
    </Section>
  );
}
