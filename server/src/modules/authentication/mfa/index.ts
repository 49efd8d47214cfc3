import { auditLogModule } from '../../administration/audit-log/index.ts';
import { defineModule } from '../../../kernel/module.ts';
import { signInModule } from '../sign-in/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { verificationCodesModule } from '../verification-codes/index.ts';
import { mfaHandlers } from './mfa.routes.ts';
import { MfaService } from './mfa.service.ts';
import * as migration0010 from './migrations/0010-mfa.ts';

/** The second factor of a sign-in (TOTP or a recovery code) and the users' recovery codes. */
export const mfaModule = defineModule({
  name: 'mfa',
  migrations: { '0010-mfa': migration0010 },
  requires: [usersModule, verificationCodesModule, signInModule, auditLogModule],
  services: ({ users, verificationCodes, signIn, auditLog }, { db }) => {
    const mfa = new MfaService(db, users, verificationCodes, signIn);
    // A new or removed TOTP secret invalidates the recovery codes and the replay guard of the old one.
    users.updated.subscribe(async (trx, project, userId, write) => {
      if (write.totp_secret_base64 === undefined) return;
      await mfa.reset(trx, project, userId);
      const action = write.totp_secret_base64 ? 'mfa.enabled' : 'mfa.disabled';
      await auditLog.record(trx, project.id, { action, target: { type: 'user', id: userId }, details: { factor: 'totp' } });
    });
    return { mfa };
  },
  handlers: mfaHandlers,
});
