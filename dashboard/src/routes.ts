import { useLocation } from '@gatehouse/react';

/** Where the dashboard lives on the platform's port (Vite's `base`). */
export const BASE = '/dashboard';

/** The sections of a project, each its own URL: `/dashboard/projects/<id>/<section>[/<item>]`. */
export const projectSections = [
  'overview',
  'connect',
  'users',
  'teams',
  'permissions',
  'auth',
  'sign-up-rules',
  'domains',
  'emails',
  'email-themes',
  'email-templates',
  'email-drafts',
  'email-outbox',
  'api-keys',
  'oauth-apps',
  'webhooks',
  'audit-log',
  'data-vault',
  'payments',
  'payment-transactions',
  'settings',
  'config',
] as const;
export type ProjectSection = (typeof projectSections)[number];
/** Where a project opens. */
export const defaultSection: ProjectSection = 'overview';

export type Route =
  | { page: 'projects' }
  | { page: 'new-project' }
  | { page: 'project'; projectId: string; section: ProjectSection; item?: string }
  | { page: 'not-found' };

/** Parses a path below BASE; anything else is not found. */
export function parseRoute(pathname: string): Route {
  const parts = pathname
    .slice(BASE.length)
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part));
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'projects')) return { page: 'projects' };
  if (parts[0] !== 'projects') return { page: 'not-found' };
  if (parts[1] === 'new' && parts.length === 2) return { page: 'new-project' };
  const [, projectId, section = defaultSection, item, ...rest] = parts;
  if (!projectId || rest.length > 0 || !(projectSections as readonly string[]).includes(section)) return { page: 'not-found' };
  return { page: 'project', projectId, section: section as ProjectSection, ...(item ? { item } : {}) };
}

export const paths = {
  projects: () => `${BASE}/projects`,
  newProject: () => `${BASE}/projects/new`,
  project: (projectId: string, section: ProjectSection = defaultSection, item?: string) =>
    `${BASE}/projects/${encodeURIComponent(projectId)}/${section}${item ? `/${encodeURIComponent(item)}` : ''}`,
};

export function useRoute(): Route & { search: URLSearchParams } {
  const { pathname, search } = useLocation();
  return { ...parseRoute(pathname), search: new URLSearchParams(search) };
}

/**
 * The fix links of the production-mode messages name dashboard paths relative to it
 * (`/projects/<id>/domains`); this makes them dashboard URLs.
 */
export function dashboardUrlOf(path: string): string {
  return path.startsWith(`${BASE}/`) ? path : `${BASE}${path}`;
}
