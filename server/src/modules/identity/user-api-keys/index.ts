import { auditLogModule } from '../../administration/audit-log/index.ts';
import { defineModule } from '../../../kernel/module.ts';
import { permissionsModule } from '../../organisations/permissions/index.ts';
import { teamsModule } from '../../organisations/teams/index.ts';
import { usersModule } from '../users/index.ts';
import { EndUserApiKeyService } from './end-user-api-key.service.ts';
import { endUserApiKeyHandlers } from './end-user-api-keys.routes.ts';
import * as migration0007 from './migrations/0007-end-user-api-keys.ts';

/** API keys of users and teams (sk_/pk_), stored hashed, revocable, checkable. */
export const endUserApiKeysModule = defineModule({
  name: 'end-user-api-keys',
  migrations: { '0007-end-user-api-keys': migration0007 },
  requires: [teamsModule, permissionsModule, usersModule, auditLogModule],
  services: ({ auditLog }, { db }) => ({ endUserApiKeys: new EndUserApiKeyService(db, auditLog) }),
  handlers: endUserApiKeyHandlers,
});
