import { defineModule } from '../../../kernel/module.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { notificationPreferencesModule } from '../../messaging/notification-preferences/index.ts';
import { signInModule } from '../sign-in/index.ts';
import * as migration0231 from './migrations/0231-known-devices.ts';
import { SignInAlertService } from './sign-in-alert.service.ts';

/** The new-device sign-in email: each user's known devices, and an email when a new one signs in. */
export const signInAlertsModule = defineModule({
  name: 'sign-in-alerts',
  requires: [signInModule, emailModule, notificationPreferencesModule],
  migrations: { '0231-known-devices': migration0231 },
  services: ({ signIn, email, notificationPreferences }, { db }) => {
    const signInAlerts = new SignInAlertService(db, email, notificationPreferences);
    signIn.personSignedIn.subscribe(async (project, user, session) =>
      signInAlerts.noteSignIn(project, user, { userAgent: session.user_agent, ip: session.last_used_ip, at: session.created_at }),
    );
    return { signInAlerts };
  },
});

// The module's public surface: what other modules may import (through this file only).
export type { SignInAlertService } from './sign-in-alert.service.ts';
