import { auditLogModule } from '../../administration/audit-log/index.ts';
import { defineModule } from '../../../kernel/module.ts';
import { accessTokensModule } from '../access-tokens/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { SessionService } from './session.service.ts';
import { sessionHandlers } from './sessions.routes.ts';
import { TokenService } from './token.service.ts';
import * as migration0003 from './migrations/0003-replaced-refresh-tokens.ts';
import * as migration0050 from './migrations/0050-refresh-token-successor.ts';
import * as migration0230 from './migrations/0230-session-user-agent.ts';

/** Sessions (refresh tokens): refresh with optional rotation, listing, revocation. */
export const sessionsModule = defineModule({
  name: 'sessions',
  migrations: {
    '0003-replaced-refresh-tokens': migration0003,
    '0050-refresh-token-successor': migration0050,
    '0230-session-user-agent': migration0230,
  },
  requires: [accessTokensModule, usersModule, auditLogModule],
  services: ({ accessTokens, users, auditLog }, { db }) => {
    const sessions = new SessionService(db, auditLog);
    // A new password (or hash) signs the user out everywhere, in the transaction that sets it.
    users.updated.subscribe(async (trx, project, userId, write) => {
      if (write.password !== undefined || write.password_hash !== undefined)
        await sessions.endAllOfUser(project.id, userId, undefined, trx);
    });
    return { sessions, tokens: new TokenService(sessions, accessTokens) };
  },
  handlers: sessionHandlers,
});

// The module's public surface: what other modules may import (through this file only).
export type { SessionService } from './session.service.ts';
export type { RefreshSessionRow } from './session.table.ts';
export type { TokenService } from './token.service.ts';
