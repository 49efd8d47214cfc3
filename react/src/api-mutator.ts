import type { ApiClient } from '@gatehouse/client';

/**
 * orval calls this for every generated hook: requests go through the project's own fetch client
 * (headers, token refresh, retry, known errors), never a second HTTP stack.
 */
let configuredClient: Pick<ApiClient, 'fetchJson'> | undefined;

export function setApiClient(client: Pick<ApiClient, 'fetchJson'>): void {
  configuredClient = client;
}

export async function apiMutator<T>(url: string, init?: RequestInit): Promise<T> {
  if (!configuredClient) throw new Error('Call setApiClient(client) (or render <GatehouseProvider>) before using the hooks');
  return (await configuredClient.fetchJson(url, init ?? {})) as T;
}

export default apiMutator;
