/**
 * Each language's messages come in three chunks, so that a page downloads only what it shows (issue
 * #37's budget: the sign-in page's JavaScript stays under 90 KB gzip in every language):
 * - `main`: what the sign-in page shows first and the shared parts (fields, checks, user button) say;
 * - `errors`: the words for error codes, loaded with the first error shown (as the error table is) —
 *   except the words for a network that fails (offline, unreachable, generic), which are in `main`: a
 *   chunk cannot be fetched when the network is gone;
 * - `pages`: everything else (the sign-up page, the emailed-link form, the other handler pages, account
 *   settings): issue #37 moved the sign-up and emailed-link words here, out of the sign-in page's budget.
 * The group of a key is its first segment's (but for `laterKeys`); the codegen splits the compiled catalogues by this rule.
 */
export const messageGroups = ['main', 'errors', 'pages'] as const;
export type MessageGroup = (typeof messageGroups)[number];

const mainSections = new Set(['common', 'field', 'validate', 'handler', 'userButton', 'signIn', 'signOut']);

const networkErrors = new Set(['error.offline', 'error.unreachable', 'error.generic']);

// Words of main sections that the sign-in page's first view never shows (each is rendered inside a lazy
// page or form, which suspends for its group anyway): in `pages`, out of the sign-in page's budget.
const laterKeys = new Set(['common.linkIncomplete', 'signIn.ssoRedirecting', 'signIn.emailFirstForm']);

export function groupOf(key: string): MessageGroup {
  const section = key.slice(0, key.indexOf('.'));
  if (section === 'error') return networkErrors.has(key) ? 'main' : 'errors';
  if (laterKeys.has(key)) return 'pages';
  return mainSections.has(section) ? 'main' : 'pages';
}
