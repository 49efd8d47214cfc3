import { defineModule } from '../../../kernel/module.ts';
import { emailModule } from '../../messaging/email/index.ts';
import { usersModule } from '../users/index.ts';
import { verificationCodesModule } from '../../authentication/verification-codes/index.ts';
import { ContactChannelService } from './contact-channel.service.ts';
import { contactChannelHandlers } from './contact-channels.routes.ts';

/** A user's emails: one primary, each verified by an emailed code. */
export const contactChannelsModule = defineModule({
  name: 'contact-channels',
  requires: [usersModule, verificationCodesModule, emailModule],
  services: ({ users, verificationCodes, email }, { db }) => ({
    contactChannels: new ContactChannelService(db, users, verificationCodes, email),
  }),
  handlers: contactChannelHandlers,
});
