import { defineModule } from '../../../kernel/module.ts';
import { sessionsModule } from '../sessions/index.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { cliLoginHandlers } from './cli-login.routes.ts';
import { CliLoginService } from './cli-login.service.ts';
import * as migration0011 from './migrations/0011-cli-login.ts';

/** CLI login: the CLI polls while a browser user confirms. */
export const cliLoginModule = defineModule({
  name: 'cli-login',
  migrations: { '0011-cli-login': migration0011 },
  requires: [sessionsModule, usersModule, signInModule],
  services: ({ sessions, users, signIn }, { db }) => ({ cliLogin: new CliLoginService(db, sessions, users, signIn) }),
  handlers: cliLoginHandlers,
});
