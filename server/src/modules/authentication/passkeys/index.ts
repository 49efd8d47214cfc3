import { defineModule } from '../../../kernel/module.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../verification-codes/index.ts';
import { PasskeyService } from './passkey.service.ts';
import { passkeyHandlers } from './passkeys.routes.ts';
import * as migration0013 from './migrations/0013-passkeys.ts';

/** Passkeys (WebAuthn): registration and sign-in. */
export const passkeysModule = defineModule({
  name: 'passkeys',
  migrations: { '0013-passkeys': migration0013 },
  requires: [usersModule, verificationCodesModule, signInModule],
  services: ({ users, verificationCodes, signIn }, { db }) => {
    const passkeys = new PasskeyService(db, users, verificationCodes, signIn);
    // Turning passkey sign-in off removes the user's passkeys (it is turned on by registering one).
    users.updated.subscribe(async (trx, project, userId, write) => {
      if (write.passkey_auth_enabled === false) await passkeys.deleteAllOfUser(trx, project, userId);
    });
    return { passkeys };
  },
  handlers: passkeyHandlers,
});
