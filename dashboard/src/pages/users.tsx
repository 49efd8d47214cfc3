import { api, Link, type ServerUser, useGatehouse, useLocation } from '@gatehouse/react';
import { keepPreviousData, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { paths } from '../routes.ts';
import { useProjectScope } from '../shell-context.ts';
import { type Translate, useDashboardTranslation } from '../i18n/dashboard-i18n.ts';
import { InviteUserDialog } from './invite-user.tsx';
import { Checkbox, ConfirmDialog, ErrorMessage, PageHeader, TextField } from '../ui.tsx';

export const USERS_PAGE_SIZE = 25;

/**
 * The project's users: search (display name, email or id), sorted by sign-up date either way, keyset
 * pages (the cursor is in the URL, so any page can be linked and reloaded; the server answers a page
 * deep in the list as fast as the first). The previous page comes from the cursors walked to get here.
 */
export function UsersPage() {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const search = new URLSearchParams(useLocation().search);
  const query = search.get('q') ?? '';
  const desc = search.get('order') !== 'oldest';
  const cursor = search.get('cursor') ?? undefined;
  const [typed, setTyped] = useState(query);
  const [creating, setCreating] = useState(false);
  const [inviting, setInviting] = useState(false);
  // Cursors of the pages before this one, for "Previous" (a linked deep page starts a new trail).
  const trail = useRef<Array<string | undefined>>([]);

  const go = (next: { q?: string; order?: 'newest' | 'oldest'; cursor?: string | undefined }, resetTrail: boolean) => {
    if (resetTrail) trail.current = [];
    const params = new URLSearchParams();
    const q = next.q ?? query;
    const order = next.order ?? (desc ? 'newest' : 'oldest');
    if (q) params.set('q', q);
    if (order === 'oldest') params.set('order', 'oldest');
    if (next.cursor) params.set('cursor', next.cursor);
    const qs = params.toString();
    gatehouse.navigate(`${paths.project(projectId, 'users')}${qs ? `?${qs}` : ''}`);
  };

  // Search as the owner types, a moment after the last key.
  useEffect(() => {
    if (typed === query) return;
    const timer = setTimeout(() => go({ q: typed.trim(), cursor: undefined }, true), 300);
    return () => clearTimeout(timer);
  });

  const params = {
    limit: USERS_PAGE_SIZE,
    order_by: 'signed_up_at' as const,
    desc: desc ? ('true' as const) : ('false' as const),
    ...(query ? { query } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const users = api.useListUsers(params, {
    request,
    query: { queryKey: api.getListUsersQueryKey(params), placeholderData: keepPreviousData },
  });
  const nextCursor = users.data?.pagination?.next_cursor ?? null;
  const { t } = useDashboardTranslation();

  return (
    <>
      <PageHeader title={t('nav.users')}>
        <button type="button" onClick={() => setInviting(true)}>
          {t('users.inviteByEmail')}
        </button>
        <button type="button" className="gh-primary" onClick={() => setCreating(true)}>
          {t('users.create')}
        </button>
      </PageHeader>
      <div className="dash-row dash-toolbar">
        <TextField
          label={t('users.search')}
          name="search"
          type="search"
          placeholder={t('users.searchPlaceholder')}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
        <div className="dash-field">
          <label htmlFor="users-order">{t('users.sort')}</label>
          <select
            id="users-order"
            value={desc ? 'newest' : 'oldest'}
            onChange={(event) => go({ order: event.target.value as 'newest' | 'oldest', cursor: undefined }, true)}
          >
            <option value="newest">{t('users.newestFirst')}</option>
            <option value="oldest">{t('users.oldestFirst')}</option>
          </select>
        </div>
        {users.isFetching ? (
          <span role="status" className="dash-muted">
            {t('common.loading')}
          </span>
        ) : null}
      </div>
      <ErrorMessage error={users.error} />
      {users.data ? (
        <UsersTable
          users={users.data.items}
          projectId={projectId}
          desc={desc}
          onSort={() => go({ order: desc ? 'oldest' : 'newest', cursor: undefined }, true)}
        />
      ) : null}
      {users.data && users.data.items.length === 0 ? (
        <p className="dash-panel">{query ? t('users.noMatch', { query }) : t('users.none')}</p>
      ) : null}
      <nav className="dash-row dash-pager" aria-label={t('users.pagesLabel')}>
        <button type="button" disabled={!cursor} onClick={() => go({ cursor: undefined }, true)}>
          {t('users.firstPage')}
        </button>
        <button
          type="button"
          disabled={trail.current.length === 0}
          onClick={() => {
            const previous = trail.current.pop();
            go({ cursor: previous }, false);
          }}
        >
          {t('users.previousPage')}
        </button>
        <button
          type="button"
          disabled={!nextCursor || users.isPlaceholderData}
          onClick={() => {
            trail.current.push(cursor);
            go({ cursor: nextCursor ?? undefined }, false);
          }}
        >
          {t('users.nextPage')}
        </button>
      </nav>
      <CreateUserDialog open={creating} onClose={() => setCreating(false)} />
      <InviteUserDialog open={inviting} onClose={() => setInviting(false)} />
    </>
  );
}

function UsersTable({ users, projectId, desc, onSort }: { users: ServerUser[]; projectId: string; desc: boolean; onSort: () => void }) {
  const { t, formatDate } = useDashboardTranslation();
  return (
    <table aria-label={t('nav.users')}>
      <thead>
        <tr>
          <th scope="col">{t('users.user')}</th>
          <th scope="col">{t('users.email')}</th>
          <th scope="col">{t('users.methods')}</th>
          <th scope="col" aria-sort={desc ? 'descending' : 'ascending'}>
            <button type="button" onClick={onSort}>
              {t('users.signedUp')} {desc ? '↓' : '↑'}
            </button>
          </th>
          <th scope="col">{t('users.lastActive')}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id}>
            <td>
              <Link href={paths.project(projectId, 'users', user.id)}>{user.display_name || user.primary_email || user.id}</Link>
              {user.is_anonymous ? <span className="dash-badge">{t('users.anonymous')}</span> : null}
              {user.is_restricted ? <span className="dash-badge">{t('users.restricted')}</span> : null}
            </td>
            <td>
              {user.primary_email ?? '—'}
              {user.primary_email && !user.primary_email_verified ? <span className="dash-badge">{t('users.unverified')}</span> : null}
            </td>
            <td>{methodsOf(user, t)}</td>
            <td>{formatDate(user.signed_up_at_millis)}</td>
            <td>{formatDate(user.last_active_at_millis)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function methodsOf(user: ServerUser, t: Translate): string {
  const methods = [
    ...(user.has_password ? [t('users.methodPassword')] : []),
    ...(user.otp_auth_enabled ? [t('users.methodMagicLink')] : []),
    ...(user.passkey_auth_enabled ? [t('users.methodPasskey')] : []),
    // One entry per provider, however many accounts of it are linked.
    ...new Set(user.oauth_providers.map((provider) => provider.id)),
  ];
  return methods.join(', ') || '—';
}

function CreateUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { projectId, request } = useProjectScope();
  const gatehouse = useGatehouse();
  const queryClient = useQueryClient();
  const create = api.useCreateUser({ request });
  const [form, setForm] = useState({ email: '', name: '', password: '', verified: true });
  const { t } = useDashboardTranslation();

  function submit(event?: FormEvent) {
    event?.preventDefault();
    create.mutate(
      {
        data: {
          primary_email: form.email.trim() || null,
          primary_email_verified: form.verified,
          primary_email_auth_enabled: Boolean(form.email.trim()),
          display_name: form.name.trim() || null,
          ...(form.password ? { password: form.password } : {}),
        },
      },
      {
        onSuccess: async (user) => {
          await queryClient.invalidateQueries({ queryKey: [api.getListUsersQueryKey()[0]] });
          onClose();
          gatehouse.navigate(paths.project(projectId, 'users', user.id));
        },
      },
    );
  }

  return (
    <ConfirmDialog
      open={open}
      title={t('users.createTitle')}
      confirmLabel={t('users.create')}
      tone="primary"
      busy={create.isPending}
      onConfirm={() => submit()}
      onClose={onClose}
    >
      <form className="dash-form" onSubmit={submit}>
        <TextField
          label={t('users.email')}
          name="email"
          type="email"
          value={form.email}
          onChange={(event) => setForm({ ...form, email: event.target.value })}
        />
        <Checkbox label={t('users.emailVerified')} checked={form.verified} onChange={(verified) => setForm({ ...form, verified })} />
        <TextField
          label={t('users.displayName')}
          name="name"
          value={form.name}
          onChange={(event) => setForm({ ...form, name: event.target.value })}
        />
        <TextField
          label={t('users.passwordOptional')}
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
        />
        <ErrorMessage error={create.error} />
      </form>
    </ConfirmDialog>
  );
}
