import { NotificationCategoryNotDisablableError } from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import type { DbHandle } from '../../../db/handle.ts';
import type { ProjectId } from '../../../tenancy/project-id.ts';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import type { UserService } from '../../identity/users/index.ts';
import { findNotificationCategory, type NotificationCategory, notificationCategories } from './notification-categories.ts';
import { findPreference, listPreferencesOfUser, upsertPreference } from './notification-preference.repository.ts';

export type NotificationPreference = components['schemas']['NotificationPreference'];

/** A category that cannot be disabled is always on, whatever was stored. */
const effective = (category: NotificationCategory, stored: boolean | undefined): boolean =>
  category.canDisable ? (stored ?? category.defaultEnabled) : true;

const toPreference = (category: NotificationCategory, enabled: boolean): NotificationPreference => ({
  notification_category_id: category.id,
  notification_category_name: category.name,
  enabled,
  can_disable: category.canDisable,
});

/** Which email notification categories a user receives (docs/protocol/endpoints.md §21). */
export class NotificationPreferenceService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
  ) {}

  /** Every category, in catalogue order, with the user's choice or the default. */
  async list(projectId: ProjectId, userId: string): Promise<NotificationPreference[]> {
    await this.users.get(projectId, userId);
    const stored = new Map(
      (await listPreferencesOfUser(this.db, projectId, userId)).map((row) => [row.notification_category_id, row.enabled]),
    );
    return notificationCategories.map((category) => toPreference(category, effective(category, stored.get(category.id))));
  }

  /** Turning on a category that is always on is accepted and changes nothing; turning it off is refused. */
  async update(projectId: ProjectId, userId: string, categoryId: string, enabled: boolean): Promise<NotificationPreference> {
    const category = findNotificationCategory(categoryId);
    if (!category) throw new PlainHttpError(404, 'Notification category not found.');
    await this.users.get(projectId, userId);
    if (!category.canDisable) {
      if (!enabled)
        throw new NotificationCategoryNotDisablableError(
          { notification_category_id: category.id },
          `The ${category.name} notification category cannot be disabled.`,
        );
      return toPreference(category, true);
    }
    await upsertPreference(this.db, projectId, { user_id: userId, notification_category_id: category.id, enabled });
    return toPreference(category, enabled);
  }

  /**
   * Whether an email of this category may be sent to the user: send-email's Marketing emails and
   * the new-device sign-in email (Sign-in alerts) ask; the other built-in emails are transactional.
   */
  async isEnabled(projectId: ProjectId, userId: string, categoryId: string): Promise<boolean> {
    const category = findNotificationCategory(categoryId);
    if (!category) throw new Error(`unknown notification category ${categoryId}`);
    if (!category.canDisable) return true;
    return effective(category, (await findPreference(this.db, projectId, userId, category.id))?.enabled);
  }
}
