import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made the request being served, as the audit log records it. */
export type RequestActor = {
  type: 'user' | 'admin' | 'server' | 'scim_directory' | 'sso_setup_link' | 'anonymous' | 'system';
  id: string | null;
};

/** Where the request being served came from (the audit log's IP address, user agent and actor). */
export type RequestOrigin = { ip: string | null; userAgent: string | null; actor: RequestActor };

const origins = new AsyncLocalStorage<RequestOrigin>();

/** Runs `work` with the origin of the request it serves (routing wraps every handler in it). */
export const runWithRequestOrigin = <T>(origin: RequestOrigin, work: () => Promise<T>): Promise<T> => origins.run(origin, work);

/** The origin of the request being served; a background job or a test calling a service directly has none. */
export const currentRequestOrigin = (): RequestOrigin | undefined => origins.getStore();
