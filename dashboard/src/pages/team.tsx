import { api, Link, useGatehouse } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { ConfirmDialog, ErrorMessage, formatDate, PageHeader, Section, TextField } from '../ui.tsx';
import { EndUserApiKeys } from './end-user-api-keys.tsx';

/** One team: rename and delete, members (add by email or id, remove), each member's permissions, invitations, API keys. */
export function TeamPage({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const { data: team } = api.useGetTeamSuspense(teamId, { request });
  return (
    <>
      <PageHeader title={team.display_name}>
        <DeleteTeamButton teamId={teamId} name={team.display_name} />
      </PageHeader>
      <p className="dash-muted">
        <code>{team.id}</code>
      </p>
      <RenameTeam key={team.display_name} teamId={teamId} name={team.display_name} />
      <Members teamId={teamId} />
      <Invitations teamId={teamId} />
      <EndUserApiKeys owner={{ kind: 'team', id: teamId }} />
    </>
  );
}

function RenameTeam({ teamId, name }: { teamId: string; name: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const update = api.useUpdateTeam({ request });
  const [value, setValue] = useState(name);
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate(
      { teamId, data: { display_name: value.trim() } },
      { onSuccess: (team) => queryClient.setQueryData(api.getGetTeamQueryKey(teamId), team) },
    );
  }
  return (
    <Section title="Team">
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label="Team name" name="team-name" value={value} onChange={(event) => setValue(event.target.value)} />
        <button type="submit" disabled={update.isPending}>
          Rename
        </button>
      </form>
      <ErrorMessage error={update.error} />
    </Section>
  );
}

function Members({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const membersKey = api.getListTeamMemberProfilesQueryKey({ team_id: teamId });
  const members = api.useListTeamMemberProfiles({ team_id: teamId }, { request });
  const definitions = api.useListTeamPermissionDefinitions({ request });
  const add = api.useCreateTeamMembership({ request });
  const remove = api.useDeleteTeamMembership({ request });
  const [who, setWho] = useState('');
  const [lookupError, setLookupError] = useState<unknown>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setLookupError(null);
    const wanted = who.trim();
    let userId = wanted;
    if (wanted.includes('@')) {
      const found = await api.listUsers({ query: wanted, limit: 2 }, request).catch((error: unknown) => {
        setLookupError(error);
        return null;
      });
      const exact = found?.items.find((user) => user.primary_email?.toLowerCase() === wanted.toLowerCase());
      if (!exact) {
        if (found) setLookupError(new Error(`No user has the email ${wanted}.`));
        return;
      }
      userId = exact.id;
    }
    add.mutate(
      { teamId, userId },
      {
        onSuccess: () => {
          setWho('');
          void queryClient.invalidateQueries({ queryKey: membersKey });
        },
      },
    );
  }

  return (
    <Section title="Members">
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label="Add member (email or user id)" name="member" value={who} onChange={(event) => setWho(event.target.value)} />
        <button type="submit" disabled={add.isPending || !who.trim()}>
          Add member
        </button>
      </form>
      <ErrorMessage error={lookupError ?? add.error ?? remove.error ?? members.error} />
      {members.isPending ? <p className="dash-muted">Loading…</p> : null}
      {members.data?.items.length === 0 ? <p className="dash-muted">No members.</p> : null}
      <ul className="dash-list dash-members">
        {members.data?.items.map((member) => (
          <MemberRow
            key={member.user_id}
            teamId={teamId}
            userId={member.user_id}
            teamDisplayName={member.display_name}
            definitions={definitions.data?.items.map((definition) => definition.id) ?? []}
            onRemove={() =>
              remove.mutate(
                { teamId, userId: member.user_id },
                { onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey }) },
              )
            }
          />
        ))}
      </ul>
    </Section>
  );
}

/** A member named by their team profile, else their user's name or email. */
function MemberRow(props: { teamId: string; userId: string; teamDisplayName: string | null; definitions: string[]; onRemove: () => void }) {
  const { projectId, request } = useProjectScope();
  const user = api.useGetUser(props.userId, { request });
  const name = props.teamDisplayName ?? user.data?.display_name ?? user.data?.primary_email ?? props.userId;
  return (
    <li>
      <div className="dash-stack">
        <Link href={paths.project(projectId, 'users', props.userId)}>{name}</Link>
        <MemberPermissions teamId={props.teamId} userId={props.userId} name={name} definitions={props.definitions} />
      </div>
      <button type="button" className="gh-danger" onClick={props.onRemove} aria-label={`Remove ${name}`}>
        Remove
      </button>
    </li>
  );
}

/** A member's direct team permissions: each one a checkbox, granted or revoked at once (rolled back when refused). */
function MemberPermissions({ teamId, userId, name, definitions }: { teamId: string; userId: string; name: string; definitions: string[] }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const params = { team_id: teamId, user_id: userId, recursive: 'false' as const };
  const key = api.getListTeamPermissionsQueryKey(params);
  const granted = api.useListTeamPermissions(params, { request, query: { queryKey: key } });
  const optimistic = {
    onMutate: async ({ permissionId }: { permissionId: string }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<typeof granted.data>(key);
      if (previous) {
        const has = previous.items.some((permission) => permission.id === permissionId);
        const items = has
          ? previous.items.filter((permission) => permission.id !== permissionId)
          : [...previous.items, { id: permissionId, user_id: userId, team_id: teamId }];
        queryClient.setQueryData(key, { ...previous, items });
      }
      return { previous };
    },
    onError: (_error: unknown, _variables: unknown, context: { previous: typeof granted.data } | undefined) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  };
  const grant = api.useCreateTeamPermission({ request, mutation: optimistic });
  const revoke = api.useDeleteTeamPermission({ request, mutation: optimistic });
  const has = new Set(granted.data?.items.map((permission) => permission.id));
  return (
    <fieldset className="dash-fieldset dash-permissions">
      <legend className="dash-muted">Permissions of {name}</legend>
      <div className="dash-row">
        {definitions.map((permissionId) => (
          <label key={permissionId} className="dash-check">
            <input
              type="checkbox"
              checked={has.has(permissionId)}
              disabled={!granted.data}
              onChange={(event) => (event.target.checked ? grant : revoke).mutate({ teamId, userId, permissionId } as never)}
            />
            {permissionId}
          </label>
        ))}
      </div>
      <ErrorMessage error={grant.error ?? revoke.error} />
    </fieldset>
  );
}

function Invitations({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListTeamInvitationsQueryKey({ team_id: teamId });
  const invitations = api.useListTeamInvitations({ team_id: teamId }, { request });
  const send = api.useSendTeamInvitation({ request });
  const revoke = api.useDeleteTeamInvitation({ request });
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    setSent(false);
    send.mutate(
      { data: { team_id: teamId, email: email.trim(), callback_url: `${window.location.origin}/handler/team-invitation` } },
      {
        onSuccess: () => {
          setEmail('');
          setSent(true);
          void queryClient.invalidateQueries({ queryKey: key });
        },
      },
    );
  }

  return (
    <Section title="Invitations" description="The invited person gets an email with a link to the app's team-invitation page.">
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label="Invite by email" name="invite" type="email" value={email} onChange={(event) => setEmail(event.target.value)} />
        <button type="submit" disabled={send.isPending || !email.trim()}>
          Send invitation
        </button>
      </form>
      <ErrorMessage error={send.error ?? revoke.error ?? invitations.error} />
      {sent ? (
        <p role="status" className="dash-success">
          Invitation sent.
        </p>
      ) : null}
      {invitations.data?.items.length === 0 ? <p className="dash-muted">No open invitations.</p> : null}
      <ul className="dash-list">
        {invitations.data?.items.map((invitation) => (
          <li key={invitation.id}>
            <span>
              {invitation.recipient_email} <span className="dash-muted">expires {formatDate(invitation.expires_at_millis)}</span>
            </span>
            <button
              type="button"
              className="gh-danger"
              onClick={() =>
                revoke.mutate(
                  { invitationId: invitation.id, params: { team_id: teamId } },
                  { onSuccess: () => queryClient.invalidateQueries({ queryKey: key }) },
                )
              }
            >
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function DeleteTeamButton({ teamId, name }: { teamId: string; name: string }) {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const remove = api.useDeleteTeam({ request });
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="gh-danger" onClick={() => setOpen(true)}>
        Delete team
      </button>
      <ConfirmDialog
        open={open}
        title={`Delete ${name}?`}
        confirmLabel="Delete team"
        busy={remove.isPending}
        onClose={() => setOpen(false)}
        onConfirm={() =>
          remove.mutate(
            { teamId },
            {
              onSuccess: async () => {
                setOpen(false);
                await queryClient.invalidateQueries({ queryKey: [api.getListTeamsQueryKey()[0]] });
                gatehouse.navigate(paths.project(projectId, 'teams'));
              },
            },
          )
        }
      >
        <p>The team, its memberships, permissions and invitations are deleted.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  );
}
