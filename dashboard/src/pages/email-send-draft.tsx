import type { OperationBody } from '@gatehouse/client';
import { api } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, Section, TextField } from '../ui.tsx';

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
      title="Send"
      description={
        sentAtMillis ? `Last sent ${formatDate(sentAtMillis)}. Save your changes before sending.` : 'Save your changes before sending.'
      }
    >
      <fieldset className="dash-fieldset" aria-labelledby={groupId}>
        <span id={groupId} className="dash-muted">
          Recipients
        </span>
        <div className="dash-check">
          <input id={`${groupId}-some`} type="radio" name="recipients" checked={to === 'some'} onChange={() => setTo('some')} />
          <label htmlFor={`${groupId}-some`}>These users</label>
        </div>
        <div className="dash-check">
          <input id={`${groupId}-all`} type="radio" name="recipients" checked={to === 'all'} onChange={() => setTo('all')} />
          <label htmlFor={`${groupId}-all`}>All users</label>
        </div>
      </fieldset>
      {to === 'some' ? (
        <TextField
          label="User ids"
          name="user-ids"
          hint="Separated by commas or spaces."
          value={userIds}
          onChange={(event) => setUserIds(event.target.value)}
        />
      ) : null}
      <TextField
        label="Subject"
        name="subject"
        hint="Leave empty for the draft's own subject."
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
          Send…
        </button>
      </div>
      {sentTo !== null ? (
        <p role="status" className="dash-success">
          Sent to {sentTo} {sentTo === 1 ? 'user' : 'users'} (users who turned this kind of email off are skipped).
        </p>
      ) : null}
      <ErrorMessage error={send.error} />
      <ConfirmDialog
        open={confirming}
        title="Send this draft?"
        confirmLabel="Send"
        tone="primary"
        busy={send.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      >
        <p>
          {to === 'all'
            ? 'Every user of the project gets this email.'
            : `${ids.length} ${ids.length === 1 ? 'user gets' : 'users get'} this email.`}
        </p>
      </ConfirmDialog>
    </Section>
  );
}
