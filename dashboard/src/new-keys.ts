import type { InternalApiKeyCreated } from '@gatehouse/react';

/**
 * The key set made with a new project, handed from the create form to its "Connect your app" page in
 * memory only: it is shown there once (the keys are stored as digests) and is gone after a reload.
 */
const handedOver = new Map<string, InternalApiKeyCreated>();

export function handOverNewKeys(projectId: string, keySet: InternalApiKeyCreated): void {
  handedOver.set(projectId, keySet);
}

/** The keys handed over for this project, once; undefined afterwards. */
export function takeNewKeys(projectId: string): InternalApiKeyCreated | undefined {
  const keySet = handedOver.get(projectId);
  handedOver.delete(projectId);
  return keySet;
}

const YEAR = 365 * 24 * 60 * 60 * 1000;

/** The key set an app needs (publishable client key and secret server key), valid for a year as on the API keys page. */
export function appKeySetBody(description: string) {
  return {
    description,
    expires_at_millis: Date.now() + YEAR,
    has_publishable_client_key: true,
    has_secret_server_key: true,
    has_super_secret_admin_key: false,
  };
}
