import type { Theme } from '@gatehouse/react';
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';

export const ThemeContext = createContext<{ theme: Theme; setTheme: (theme: Theme) => void }>({ theme: 'system', setTheme: () => {} });

/** The cache of the owner's own calls (their projects and teams); each project has a cache of its own. */
export const RootQueryClientContext = createContext<QueryClient | null>(null);

export function useRootQueryClient(): QueryClient {
  const client = useContext(RootQueryClientContext);
  if (!client) throw new Error('useRootQueryClient outside the dashboard root');
  return client;
}

/** The project whose pages are shown: its id and the `request` option that makes a hook an admin call on it. */
export const ProjectContext = createContext<{ projectId: string; request: RequestInit } | null>(null);

export function useProjectScope(): { projectId: string; request: RequestInit } {
  const scope = useContext(ProjectContext);
  if (!scope) throw new Error('useProjectScope outside a project page');
  return scope;
}
