import type { OperationHandlers } from '../../../routing/operation-handlers.ts';
import type { PermissionService } from '../../organisations/permissions/index.ts';
import type { TeamService } from '../../organisations/teams/index.ts';
import type { UserService } from '../users/index.ts';
import { authOf, requireLiveSession } from '../../../request-context/auth-of.ts';
import type { RequestAuth } from '../../../request-context/request-auth.ts';
import { resolveUserId } from '../../../request-context/resolve-user-id.ts';
import { requireTeamPermission } from '../../organisations/permissions/index.ts';
import type { EndUserApiKeyService, KeyOwner } from './end-user-api-key.service.ts';
import { toTeamApiKey, toUserApiKey } from './end-user-api-key.service.ts';

export function endUserApiKeyHandlers(services: {
  endUserApiKeys: EndUserApiKeyService;
  teams: TeamService;
  permissions: PermissionService;
  users: UserService;
}) {
  const keys = services.endUserApiKeys;
  const userOwner = (auth: RequestAuth, userId: string): KeyOwner => {
    keys.assertEnabled(auth.project, 'user');
    return { type: 'user', userId: resolveUserId(auth, userId) };
  };
  /** Team keys: enabled first, then (when creating) the team must exist, then client access needs $manage_api_keys. */
  const teamOwner = async (auth: RequestAuth, teamId: string, options: { mustExist?: boolean } = {}): Promise<KeyOwner> => {
    keys.assertEnabled(auth.project, 'team');
    if (options.mustExist) await services.teams.get(auth.project.id, teamId);
    await requireTeamPermission(services.permissions, auth, teamId, '$manage_api_keys');
    return { type: 'team', teamId };
  };

  return {
    listUserApiKeys: async (request) => {
      const auth = authOf(request);
      const rows = await keys.list(auth.project.id, userOwner(auth, request.query.user_id));
      return { items: rows.map(toUserApiKey), is_paginated: false as const };
    },
    createUserApiKey: async (request) => {
      const auth = authOf(request);
      await requireLiveSession(request);
      const owner = userOwner(auth, request.body.user_id);
      if (owner.type === 'user') await services.users.get(auth.project.id, owner.userId);
      const { row, value } = await keys.create(auth.project, owner, request.body);
      return { ...toUserApiKey(row), value };
    },
    getUserApiKey: async (request) => {
      const auth = authOf(request);
      return toUserApiKey(await keys.get(auth.project.id, userOwner(auth, request.query.user_id), request.params.api_key_id));
    },
    updateUserApiKey: async (request) => {
      const auth = authOf(request);
      return toUserApiKey(
        await keys.update(auth.project.id, userOwner(auth, request.query.user_id), request.params.api_key_id, request.body),
      );
    },
    checkUserApiKey: async (request) => {
      const auth = authOf(request);
      keys.assertEnabled(auth.project, 'user');
      return toUserApiKey(await keys.check(auth.project.id, 'user', request.body.api_key));
    },
    listTeamApiKeys: async (request) => {
      const auth = authOf(request);
      const rows = await keys.list(auth.project.id, await teamOwner(auth, request.query.team_id));
      return { items: rows.map(toTeamApiKey), is_paginated: false as const };
    },
    createTeamApiKey: async (request) => {
      const auth = authOf(request);
      const { row, value } = await keys.create(
        auth.project,
        await teamOwner(auth, request.body.team_id, { mustExist: true }),
        request.body,
      );
      return { ...toTeamApiKey(row), value };
    },
    getTeamApiKey: async (request) => {
      const auth = authOf(request);
      return toTeamApiKey(await keys.get(auth.project.id, await teamOwner(auth, request.query.team_id), request.params.api_key_id));
    },
    updateTeamApiKey: async (request) => {
      const auth = authOf(request);
      return toTeamApiKey(
        await keys.update(auth.project.id, await teamOwner(auth, request.query.team_id), request.params.api_key_id, request.body),
      );
    },
    checkTeamApiKey: async (request) => {
      const auth = authOf(request);
      keys.assertEnabled(auth.project, 'team');
      return toTeamApiKey(await keys.check(auth.project.id, 'team', request.body.api_key));
    },
  } satisfies Partial<OperationHandlers>;
}
