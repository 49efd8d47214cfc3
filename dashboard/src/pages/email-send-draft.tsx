import type { OperationBody } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { ConfirmDialog, ErrorMessage, Section, TextField } from '../ui.tsx';

/** Sends a saved draft to some or all users, after a confirmation. */
export function SendDraft({ draftId, sentAtMillis }: { draftId: string; sentAtMillis: number | null }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const send = api.useSendEmail({ request });
  const [to, setTo] = useState<'all' | 'some'>('some');
  const [userIds, setUserIds] = useState('');
  const [subject, setSubject] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [sentTo, setSentTo] = useState<number | null>(null);
  const ids = userIds
    .split(/[\s,]+/)
    .map((id) => id.trim())
    .filter(Boolean);
  const groupId = useId();
  const { t, formatDate } = useDashboardTranslation();

  function confirm() {
    const body: OperationBody<'sendEmail'> = {
      draft_id: draftId,
      ...(to === 'all' ? { all_users: true as const } : { user_ids: ids }),
      ...(subject.trim() ? { subject: subject.trim() } : {}),
    };
    send.mutate(
      { data: body },
      {
        onSuccess: async (answer) => {
          setSentTo(answer.results.length);
          setConfirming(false);
          await queryClient.invalidateQueries({ queryKey: api.getGetEmailDraftQueryKey(draftId) });
        },
        onError: () => setConfirming(false),
      },
    );
  }

  return (
    <Section
      title={t('sendDraft.title')}
      description={sentAtMillis ? t('sendDraft.lastSent', { date: formatDate(sentAtMillis) }) : t('sendDraft.saveFirst')}
    >
      <fieldset className="dash-fieldset" aria-labelledby={groupId}>
        <span id={groupId} className="dash-muted">
          {t('sendDraft.recipients')}
        </span>
        <div className="dash-check">
          <input id={`${groupId}-some`} type="radio" name="recipients" checked={to === 'some'} onChange={() => setTo('some')} />
          <label htmlFor={`${groupId}-some`}>{t('sendDraft.theseUsers')}</label>
        </div>
        <div className="dash-check">
          <input id={`${groupId}-all`} type="radio" name="recipients" checked={to === 'all'} onChange={() => setTo('all')} />
          <label htmlFor={`${groupId}-all`}>{t('sendDraft.allUsers')}</label>
        </div>
      </fieldset>
      {to === 'some' ? (
        <TextField
          label={t('sendDraft.userIds')}
          name="user-ids"
          hint={t('sendDraft.userIdsHint')}
          value={userIds}
          onChange={(event) => setUserIds(event.target.value)}
        />
      ) : null}
      <TextField
        label={t('sendDraft.subject')}
        name="subject"
        hint={t('sendDraft.subjectHint')}
        value={subject}
        onChange={(event) => setSubject(event.target.value)}
      />
      <div className="dash-row">
        <button
          type="button"
          className="gh-primary"
          disabled={send.isPending || (to === 'some' && ids.length === 0)}
          onClick={() => setConfirming(true)}
        >
          {t('sendDraft.sendEllipsis')}
        </button>
      </div>
      {sentTo !== null ? (
        <p role="status" className="dash-success">
          {t('sendDraft.sentTo', { count: sentTo })}
        </p>
      ) : null}
      <ErrorMessage error={send.error} />
      <ConfirmDialog
        open={confirming}
        title={t('sendDraft.confirmTitle')}
        confirmLabel={t('sendDraft.send')}
        tone="primary"
        busy={send.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      >
        <p>{to === 'all' ? t('sendDraft.everyUserGets') : t('sendDraft.usersGet', { count: ids.length })}</p>
      </ConfirmDialog>
    </Section>
  );
}
