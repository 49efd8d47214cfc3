import { defineModule } from '../../../kernel/module.ts';
import { PasswordPolicy, readBreachedPasswordSettings } from '../../../lib/passwords/password-policy.ts';
import { eventsModule } from '../../platform/events/index.ts';
import * as migration0075 from './migrations/0075-user-search-trigram-indexes.ts';
import * as migration0241 from './migrations/0241-user-language.ts';
import { UserService } from './user.service.ts';
import { userHandlers } from './users.routes.ts';

export type { SignUpAdmission, SignUpAttempt, SignUpGate, SignUpSignals } from './user.service.ts';

/**
 * Users and their primary email. Other modules react to users through `users.created` and
 * `users.updated` (in the writing transaction) and answer its ports (`users.teams`, `users.accountImport`).
 */
export const usersModule = defineModule({
  name: 'users',
  requires: [eventsModule],
  settings: readBreachedPasswordSettings,
  services: ({ events }, { db, settings }) => ({ users: new UserService(db, events, new PasswordPolicy(settings)) }),
  handlers: userHandlers,
  migrations: { '0075-user-search-trigram-indexes': migration0075, '0241-user-language': migration0241 },
});

// The module's public surface: what other modules may import (through this file only).
export type { ContactChannelRow, ContactChannelTable } from './contact-channel.table.ts';
export { toServerUser } from './user-views.ts';
export { jsonColumn } from './user-writes.ts';
export type { ProviderAccountImport, UserWrite } from './user-writes.ts';
export type { UserService } from './user.service.ts';
