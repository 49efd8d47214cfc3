import type { Translate } from '../i18n/i18n-context.ts';

/**
 * Words the server sends in English as data (a consent scope's description, a notification category's
 * name), in the UI's language: the ones Gatehouse defines have catalogue keys; anything else (an
 * application's own scope, a category the server adds later) is worded from its name.
 */
export function scopeDescription(t: Translate, scope: { name: string }): string {
  switch (scope.name) {
    case 'openid':
      return t('scope.openid');
    case 'email':
      return t('scope.email');
    case 'profile':
      return t('scope.profile');
    case 'offline_access':
      return t('scope.offlineAccess');
    default:
      return t('scope.other', { name: scope.name });
  }
}

export function notificationCategoryName(t: Translate, category: { notification_category_name: string }): string {
  switch (category.notification_category_name) {
    case 'Transactional':
      return t('notifications.categoryTransactional');
    case 'Marketing':
      return t('notifications.categoryMarketing');
    case 'Sign-in alerts':
      return t('notifications.categorySignInAlerts');
    default:
      return category.notification_category_name;
  }
}
