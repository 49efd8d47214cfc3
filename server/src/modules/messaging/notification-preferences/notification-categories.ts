/**
 * The fixed email notification categories, with the ids Stack Auth uses (docs/protocol/endpoints.md §21), so a
 * client that knows them by id keeps working. Transactional emails (sign-in links, codes,
 * invitations) can never be turned off. `Sign-in alerts` is Gatehouse's own (Stack has no such
 * email): the new-device sign-in email, on until the user turns it off.
 */
export type NotificationCategory = {
  id: string;
  name: 'Transactional' | 'Marketing' | 'Sign-in alerts';
  defaultEnabled: boolean;
  canDisable: boolean;
};

export const transactionalCategoryId = '7bb82d33-2f54-4a3d-9d23-82739e0d66ef';
export const marketingCategoryId = '4f6f8873-3d04-46bd-8bef-18338b1a1b4c';
/** Gatehouse's own id (not one of Stack's). */
export const signInAlertsCategoryId = 'c1f6a0d2-5b7e-4e39-9f0a-8d2b6c4e1a37';

export const notificationCategories: readonly NotificationCategory[] = [
  { id: transactionalCategoryId, name: 'Transactional', defaultEnabled: true, canDisable: false },
  { id: marketingCategoryId, name: 'Marketing', defaultEnabled: true, canDisable: true },
  { id: signInAlertsCategoryId, name: 'Sign-in alerts', defaultEnabled: true, canDisable: true },
];

export function findNotificationCategory(id: string): NotificationCategory | undefined {
  const wanted = id.toLowerCase();
  return notificationCategories.find((category) => category.id === wanted);
}
