import type { Session, SessionClient } from '@gatehouse/client';
import { createContext, useContext } from 'react';
import type { HandlerUrls } from './handler-urls.ts';

export type SignInTokens = { access_token: string; refresh_token: string };

export type Gatehouse = {
  projectId: string;
  publishableClientKey: string;
  baseUrl: string;
  client: SessionClient;
  session: Session;
  urls: HandlerUrls;
  /** Moves the app to a URL: the app router's navigation when given to the provider, else the History API. */
  navigate(url: string, options?: { replace?: boolean }): void;
  /** Origins besides this one that redirects may go to. */
  trustedOrigins: readonly string[];
  /** Stores the tokens of a finished sign-in and leaves for the return-to page or the after-sign-in/up URL. */
  completeSignIn(tokens: SignInTokens, kind: 'sign-in' | 'sign-up', returnTo?: string | null): void;
  /** Leaves for a URL if it is trusted, else for the fallback. */
  redirect(url: string | null | undefined, fallback: string): void;
  /** One anonymous sign-up at a time, however many components ask for it. */
  ensureAnonymousSession(): Promise<void>;
};

export const GatehouseContext = createContext<Gatehouse | null>(null);

/** The provider's state; throws outside a `<GatehouseProvider>`. */
export function useGatehouse(): Gatehouse {
  const gatehouse = useContext(GatehouseContext);
  if (!gatehouse) throw new Error('Gatehouse hooks and components must be rendered inside <GatehouseProvider>');
  return gatehouse;
}
