import { defineModule } from '../../../kernel/module.ts';
import { usersModule } from '../../identity/users/index.ts';
import { NotificationPreferenceService } from './notification-preference.service.ts';
import { notificationPreferenceHandlers } from './notification-preferences.routes.ts';
import * as migration0014 from './migrations/0014-notification-preferences.ts';

/** Which email notification categories a user receives. */
export const notificationPreferencesModule = defineModule({
  name: 'notification-preferences',
  migrations: { '0014-notification-preferences': migration0014 },
  requires: [usersModule],
  services: ({ users }, { db }) => ({ notificationPreferences: new NotificationPreferenceService(db, users) }),
  handlers: notificationPreferenceHandlers,
});

// The module's public surface: what other modules may import (through this file only).
export {
  findNotificationCategory,
  marketingCategoryId,
  signInAlertsCategoryId,
  transactionalCategoryId,
} from './notification-categories.ts';
export type { NotificationCategory } from './notification-categories.ts';
export type { NotificationPreferenceService } from './notification-preference.service.ts';
