import { defineModule } from '../../kernel/module.ts';
import { eventsModule } from '../events/index.ts';
import * as migration0075 from './migrations/0075-user-search-trigram-indexes.ts';
import { UserService } from './user.service.ts';
import { userHandlers } from './users.routes.ts';

/**
 * Users and their primary email. Other modules react to users through `users.created` and
 * `users.updated` (in the writing transaction) and answer its ports (`users.teams`, `users.accountImport`).
 */
export const usersModule = defineModule({
  name: 'users',
  requires: [eventsModule],
  services: ({ events }, { db }) => ({ users: new UserService(db, events) }),
  handlers: userHandlers,
  migrations: { '0075-user-search-trigram-indexes': migration0075 },
});
