import type { Schema } from '@gatehouse/protocol/operation-types';
import { SchemaError } from '@gatehouse/protocol/errors';
import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { UserService } from './user.service.ts';
import { authOf, requireLiveSession } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { toClientCurrentUser, toServerUser } from './user-views.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserWrite } from './user-writes.ts';

/**
 * The fields of `CurrentUserClientUpdate`: a client may change nothing else of itself. The record's keys
 * must be exactly the schema's properties (a field added to or removed from the spec fails the typecheck).
 */
const clientWritable: { [Field in keyof Schema<'CurrentUserClientUpdate'>]-?: true } = {
  display_name: true,
  profile_image_url: true,
  client_metadata: true,
  selected_team_id: true,
  otp_auth_enabled: true,
  passkey_auth_enabled: true,
  primary_email: true,
  totp_secret_base64: true,
  language: true,
};
const clientWritableFields: ReadonlySet<string> = new Set(Object.keys(clientWritable));

/** Fields of PATCH /users/me that change how the user signs in: a signed-out session's token may not set them. */
const signInMethodFields = new Set([
  'primary_email',
  'primary_email_auth_enabled',
  'otp_auth_enabled',
  'passkey_auth_enabled',
  'password',
  'password_hash',
  'totp_secret_base64',
]);

export function userHandlers(services: { users: UserService }) {
  const ownUser = (auth: RequestAuth) => auth.user?.record as UserRecord;
  const selectedTeam = async (user: UserRecord) =>
    user.selected_team_id
      ? await services.users.selectedTeams(user.project_id, [user]).then((views) => views.get(user.selected_team_id as string))
      : undefined;
  const currentUserView = async (auth: RequestAuth, user: UserRecord) =>
    auth.accessType === 'client'
      ? toClientCurrentUser(auth.project, user, await selectedTeam(user))
      : toServerUser(auth.project, user, await selectedTeam(user));
  const serverView = async (auth: RequestAuth, user: UserRecord) => toServerUser(auth.project, user, await selectedTeam(user));

  return {
    getCurrentUser: async (request) => {
      const auth = authOf(request);
      return currentUserView(auth, ownUser(auth));
    },

    updateCurrentUser: async (request) => {
      const auth = authOf(request);
      const body = request.body as UserWrite;
      if (auth.accessType === 'client') {
        const forbidden = Object.keys(body).filter((field) => !clientWritableFields.has(field));
        if (forbidden.length > 0) {
          const message = forbidden.map((field) => `body contains field "${field}" that client access may not set`).join('\n');
          throw new SchemaError({ message }, message);
        }
      }
      if (Object.keys(body).some((field) => signInMethodFields.has(field))) await requireLiveSession(request);
      const updated = await services.users.update(auth.project, ownUser(auth).id, body);
      return currentUserView(auth, updated);
    },

    deleteCurrentUser: async (request) => {
      const auth = authOf(request);
      if (auth.accessType === 'client' && !auth.project.config.users.allowClientUserDeletion) {
        throw new PlainHttpError(400, 'Client user deletion is not enabled for this project.');
      }
      await services.users.delete(auth.project, ownUser(auth).id);
      return { success: true } as const;
    },

    listUsers: async (request) => {
      const auth = authOf(request);
      const { limit, cursor, desc, query, include_anonymous, include_restricted, only_anonymous } = request.query;
      if (only_anonymous === 'true' && include_anonymous !== 'true') {
        throw new PlainHttpError(400, 'only_anonymous needs include_anonymous=true.');
      }
      const records = await services.users.list(auth.project.id, {
        limit,
        cursor,
        desc: desc === 'true',
        query,
        includeAnonymous: include_anonymous === 'true',
        includeRestricted: include_restricted === 'true',
        onlyAnonymous: only_anonymous === 'true',
        requireEmailVerification: auth.project.config.onboarding.requireEmailVerification,
      });
      const page = limit === undefined ? records : records.slice(0, limit);
      const teams = await services.users.selectedTeams(auth.project.id, page);
      const items = page.map((record) =>
        toServerUser(auth.project, record, record.selected_team_id ? teams.get(record.selected_team_id) : undefined),
      );
      if (limit === undefined) return { items, is_paginated: false };
      return { items, is_paginated: true, pagination: { next_cursor: records[limit]?.id ?? null } };
    },

    createUser: async (request, reply) => {
      const auth = authOf(request);
      const created = await services.users.create(auth.project, request.body, 'server');
      reply.status(201);
      return serverView(auth, created);
    },

    getUser: async (request) => {
      const auth = authOf(request);
      return serverView(auth, await services.users.get(auth.project.id, request.params.user_id.toLowerCase()));
    },

    updateUser: async (request) => {
      const auth = authOf(request);
      return serverView(auth, await services.users.update(auth.project, request.params.user_id.toLowerCase(), request.body));
    },

    deleteUser: async (request) => {
      const auth = authOf(request);
      await services.users.delete(auth.project, request.params.user_id.toLowerCase());
      return { success: true } as const;
    },
  } satisfies Partial<OperationHandlers>;
}
