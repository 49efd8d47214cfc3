import type { QueryClient } from '@tanstack/react-query';
import type { Gatehouse } from '../gatehouse-context.ts';
import { currentUserQuery } from '../hooks/use-user.ts';
import { type Language, matchLanguage } from './languages.ts';

/**
 * The signed-in user's own language (the `language` field account settings writes), else `fallback()` (no
 * user, no language of their own, or the request failed). Loaded by the provider only when a session is
 * open, so that the sign-in page of a signed-out visitor carries none of it.
 */
export function usersLanguage(
  gatehouse: Gatehouse,
  queryClient: QueryClient,
  fallback: () => Language | Promise<Language>,
): Promise<Language> {
  return queryClient
    .fetchQuery(currentUserQuery(gatehouse.session))
    .then((user) => matchLanguage([user?.language]) ?? fallback(), fallback);
}
