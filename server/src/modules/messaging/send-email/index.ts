import { defineModule } from '../../../kernel/module.ts';
import { emailModule } from '../email/index.ts';
import { notificationPreferencesModule } from '../notification-preferences/index.ts';
import { projectsModule } from '../../platform/projects/index.ts';
import { usersModule } from '../../identity/users/index.ts';
import { EmailSendingService } from './email-sending.service.ts';
import { emailSendingHandlers } from './email-sending.routes.ts';

/** `POST /emails/send-email` (owners' emails to their users) and the unsubscribe link it puts in them. */
export const emailSendingModule = defineModule({
  name: 'email-sending',
  requires: [emailModule, usersModule, notificationPreferencesModule, projectsModule],
  services: ({ email, emailContent }, { db, serverSecret }) => ({
    emailSending: new EmailSendingService(db, { email, emailContent }),
    unsubscribeSecret: serverSecret,
  }),
  handlers: (services) => emailSendingHandlers(services),
});
