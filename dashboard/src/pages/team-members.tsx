import { api, Link, type TeamMemberProfile, type TeamMemberProfileList } from '@gatehouse/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { optimisticUpdate } from '../optimistic.ts';
import { paths } from '../routes.ts';
import { useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { useProjectScope } from '../shell-context.ts';
import { ErrorMessage, QueryState, Section, TextField } from '../ui.tsx';

/**
 * A team's members (add by email or id, remove), each with their team profile (the name and image they
 * carry in this team, separate from their user's; edited inline, shown at once and put back when the
 * server refuses, with its message) and their direct permissions.
 */
export function Members({ teamId }: { teamId: string }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const membersKey = api.getListTeamMemberProfilesQueryKey({ team_id: teamId });
  const members = api.useListTeamMemberProfiles({ team_id: teamId }, { request, query: { queryKey: membersKey } });
  const definitions = api.useListTeamPermissionDefinitions({ request });
  const add = api.useCreateTeamMembership({ request });
  const remove = api.useDeleteTeamMembership({ request });
  const [who, setWho] = useState('');
  const [lookupError, setLookupError] = useState<unknown>(null);
  const { t } = useDashboardTranslation();

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
        if (found) setLookupError(new Error(t('team.noUserWithEmail', { email: wanted })));
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
    <Section title={t('team.members')} description={t('team.membersDescription')}>
      <form className="dash-row dash-toolbar" onSubmit={submit}>
        <TextField label={t('team.addMemberLabel')} name="member" value={who} onChange={(event) => setWho(event.target.value)} />
        <button type="submit" disabled={add.isPending || !who.trim()}>
          {t('team.addMember')}
        </button>
      </form>
      <ErrorMessage error={lookupError ?? add.error ?? remove.error} />
      <QueryState query={members} what={t('team.membersWhat')}>
        {members.data?.items.length === 0 ? <p className="dash-muted">{t('team.noMembers')}</p> : null}
        <ul className="dash-list dash-members" aria-label={t('team.membersList')}>
          {members.data?.items.map((member) => (
            <MemberRow
              key={member.user_id}
              member={member}
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
      </QueryState>
    </Section>
  );
}

/** A member named by their team profile, else their user's name or email. */
function MemberRow({ member, definitions, onRemove }: { member: TeamMemberProfile; definitions: string[]; onRemove: () => void }) {
  const { projectId } = useProjectScope();
  const [editing, setEditing] = useState(false);
  const update = useMemberProfileUpdate(member);
  const editButton = useRef<HTMLButtonElement>(null);
  const { t } = useDashboardTranslation();
  const userName = member.user?.display_name ?? member.user?.primary_email ?? member.user_id;
  const name = member.display_name ?? userName;
  const image = member.profile_image_url ?? member.user?.profile_image_url ?? null;
  const close = () => {
    setEditing(false);
    // Back to the button that opened the form, so keyboard users keep their place.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  return (
    <li>
      <div className="dash-stack">
        <div className="dash-row">
          {image ? <img src={image} alt="" className="dash-avatar" /> : <span className="dash-avatar" aria-hidden="true" />}
          <Link href={paths.project(projectId, 'users', member.user_id)}>{name}</Link>
          {member.display_name !== null ? <span className="dash-muted">{t('team.userIs', { name: userName })}</span> : null}
          <button
            type="button"
            ref={editButton}
            aria-expanded={editing}
            aria-label={t('team.editProfileOf', { name })}
            onClick={() => {
              if (editing) return close();
              update.reset();
              setEditing(true);
            }}
          >
            {t('team.editProfile')}
          </button>
        </div>
        {editing ? <MemberProfileForm member={member} name={name} update={update} onDone={close} /> : null}
        {update.isPending ? (
          <span role="status" className="dash-muted">
            {t('team.savingProfile')}
          </span>
        ) : null}
        <ErrorMessage error={update.error} />
        <MemberPermissions teamId={member.team_id} userId={member.user_id} name={name} definitions={definitions} />
      </div>
      <button type="button" className="gh-danger" onClick={onRemove} aria-label={t('team.removeLabel', { name })}>
        {t('team.remove')}
      </button>
    </li>
  );
}

/**
 * A member's profile change, held by their row so that the server's refusal still shows after the form closed.
 * Optimistic: the list shows the new name and image at once, and the previous list comes back when the server
 * refuses.
 */
function useMemberProfileUpdate(member: TeamMemberProfile) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const key = api.getListTeamMemberProfilesQueryKey({ team_id: member.team_id });
  return api.useUpdateTeamMemberProfile({
    request,
    mutation: optimisticUpdate(queryClient, key, (cached: TeamMemberProfileList, { data }: { data: Partial<TeamMemberProfile> }) => ({
      ...cached,
      items: cached.items.map((item) => (item.user_id === member.user_id ? { ...item, ...data } : item)),
    })),
  });
}

/** The inline form: the team display name and profile image URL (empty = use the user's own). Escape cancels. */
function MemberProfileForm({
  member,
  name,
  update,
  onDone,
}: {
  member: TeamMemberProfile;
  name: string;
  update: ReturnType<typeof useMemberProfileUpdate>;
  onDone: () => void;
}) {
  const [form, setForm] = useState({ display_name: member.display_name ?? '', profile_image_url: member.profile_image_url ?? '' });
  const first = useRef<HTMLDivElement>(null);
  const { t } = useDashboardTranslation();
  useEffect(() => {
    first.current?.querySelector('input')?.focus();
  }, []);
  function submit(event: FormEvent) {
    event.preventDefault();
    const data = { display_name: form.display_name.trim() || null, profile_image_url: form.profile_image_url.trim() || null };
    update.mutate({ teamId: member.team_id, userId: member.user_id, data });
    onDone();
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <form className="dash-row dash-toolbar" aria-label={t('team.profileOf', { name })} onSubmit={submit} onKeyDown={onKeyDown}>
      <div ref={first}>
        <TextField
          label={t('team.displayName')}
          name="team-display-name"
          hint={t('team.displayNameHint')}
          value={form.display_name}
          onChange={(event) => setForm({ ...form, display_name: event.target.value })}
        />
      </div>
      <TextField
        label={t('team.profileImage')}
        name="team-profile-image-url"
        placeholder={t('team.profileImagePlaceholder')}
        value={form.profile_image_url}
        onChange={(event) => setForm({ ...form, profile_image_url: event.target.value })}
      />
      <button type="submit" className="gh-primary">
        {t('team.saveProfile')}
      </button>
      <button type="button" onClick={onDone}>
        {t('common.cancel')}
      </button>
    </form>
  );
}

/** A member's direct team permissions: each one a checkbox, granted or revoked at once (rolled back when refused). */
function MemberPermissions({ teamId, userId, name, definitions }: { teamId: string; userId: string; name: string; definitions: string[] }) {
  const { request } = useProjectScope();
  const queryClient = useQueryClient();
  const params = { team_id: teamId, user_id: userId, recursive: 'false' as const };
  const key = api.getListTeamPermissionsQueryKey(params);
  const granted = api.useListTeamPermissions(params, { request, query: { queryKey: key } });
  const optimistic = optimisticUpdate(
    queryClient,
    key,
    (cached: NonNullable<typeof granted.data>, { permissionId }: { permissionId: string }) => {
      const has = cached.items.some((permission) => permission.id === permissionId);
      const items = has
        ? cached.items.filter((permission) => permission.id !== permissionId)
        : [...cached.items, { id: permissionId, user_id: userId, team_id: teamId }];
      return { ...cached, items };
    },
  );
  const grant = api.useCreateTeamPermission({ request, mutation: optimistic });
  const revoke = api.useDeleteTeamPermission({ request, mutation: optimistic });
  const has = new Set(granted.data?.items.map((permission) => permission.id));
  const { t } = useDashboardTranslation();
  return (
    <fieldset className="dash-fieldset dash-permissions">
      <legend className="dash-muted">{t('team.permissionsOf', { name })}</legend>
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
