import {
  createCookieTokenStore,
  createLocalStorageTokenStore,
  createMemoryTokenStore,
  createSessionClient,
  type TokenStore,
} from '@gatehouse/client';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { setApiClient } from './api-mutator.ts';
import { type Gatehouse, GatehouseContext, type SignInTokens } from './gatehouse-context.ts';
import { getCurrentProject, getGetCurrentProjectQueryKey } from './generated/hooks.ts';
import { type HandlerUrlOptions, resolveHandlerUrls } from './handler-urls.ts';
import { createLocalisation, type Localisation, LocalisationContext } from './i18n/i18n-context.ts';
import { directionOf, type Language, matchLanguage, pickLanguage } from './i18n/languages.ts';
import { isTrustedRedirect, navigate, RETURN_TO_PARAM, untrustedRedirectPage, useRenderNavigations } from './navigation.ts';
import { createGatehouseQueryClient } from './query-policy.ts';
import { GatehouseStyles, type Theme } from './ui/styles.tsx';

export type GatehouseProviderProps = {
  projectId: string;
  publishableClientKey: string;
  /** Where the platform is; this page's origin by default. */
  baseUrl?: string;
  /** Where tokens live: cookies by default (they survive reloads and reach your server). */
  tokenStore?: 'cookie' | 'localStorage' | 'memory' | TokenStore;
  /** Handler path and redirect targets (home, after sign-in/up/out, single pages). */
  urls?: HandlerUrlOptions;
  /** Origins other than this one that `after_auth_return_to` may point to. */
  trustedOrigins?: string[];
  theme?: Theme;
  /**
   * The UI's language (`de`, `pt-BR`, `ar`, ...); by default the signed-in user's `language` (picked in
   * account settings), else the first of the browser's languages the UI has, else the project's default
   * language (`config.default_language`), else English. Only this language's messages are downloaded.
   */
  lang?: string;
  /**
   * Your router's navigation (e.g. react-router's `navigate`), so redirects re-render your routes;
   * by default the History API plus `useLocation()` of this package.
   */
  navigate?: (url: string, options?: { replace?: boolean }) => void;
  /** Bring your own React Query client; it should follow `createGatehouseQueryClient()`'s policy. */
  queryClient?: QueryClient;
  children: ReactNode;
};

/**
 * Everything the hooks, components and handler pages need: a session (tokens in the chosen store),
 * the API client the generated hooks call through, the React Query cache, the handler URLs.
 *
 * @example
 * <GatehouseProvider projectId={id} publishableClientKey={key}>
 *   <Suspense fallback={<Spinner />}><App /></Suspense>
 * </GatehouseProvider>
 */
export function GatehouseProvider(props: GatehouseProviderProps) {
  const [queryClient] = useState(() => props.queryClient ?? createGatehouseQueryClient());
  // Made once: a provider for another project (or other keys) needs its own `key`.
  const [gatehouse] = useState(() => createGatehouse(props, queryClient));
  // Above the app's Suspense boundaries: a redirect from a suspended render restarts it under the new URL.
  useRenderNavigations();
  // The `lang` prop; then the language the person picks in account settings (`chosen`, while on the page; the
  // user's `language` when a session is open as the provider starts); then the browser's languages; then
  // (asked for only when none of these names a language the UI has) the project's default, then English.
  const [chosen, choose] = useState<Localisation>();
  const matched = matchLanguage([props.lang]);
  const started = useMemo(() => {
    const fallback = () => matchLanguage(typeof navigator === 'undefined' ? [] : navigator.languages) ?? projectLanguage(queryClient);
    return createLocalisation(
      matched ??
        (gatehouse.session.getTokens().refreshToken
          ? import('./i18n/users-language.ts').then((module) => module.usersLanguage(gatehouse, queryClient, fallback))
          : fallback()),
      // An app that fixes `lang` keeps it: the picker then saves the user's language (for emails) only.
      matched ? undefined : choose,
    );
  }, [matched, gatehouse, queryClient]);
  const localisation = chosen ?? started;
  useEffect(() => {
    // Screen readers, fonts and line breaking follow `lang`; `dir` mirrors the layout for Arabic.
    let current = true;
    void Promise.resolve(localisation.language).then((language) => {
      if (!current) return;
      const root = document.documentElement;
      root.lang = language;
      root.dir = directionOf(language);
    });
    return () => {
      current = false;
    };
  }, [localisation]);

  useEffect(() => {
    // A new sign-in or a sign-out changes whose data the cache holds: start over. Access-token
    // refreshes keep the same refresh token and leave the cache alone.
    let refreshToken = gatehouse.session.getTokens().refreshToken;
    return gatehouse.session.subscribe((tokens) => {
      if (tokens.refreshToken === refreshToken) return;
      refreshToken = tokens.refreshToken;
      void queryClient.resetQueries();
    });
  }, [gatehouse, queryClient]);

  return (
    <GatehouseContext.Provider value={gatehouse}>
      <LocalisationContext.Provider value={localisation}>
        <QueryClientProvider client={queryClient}>
          <GatehouseStyles theme={props.theme ?? 'system'} />
          {props.children}
        </QueryClientProvider>
      </LocalisationContext.Provider>
    </GatehouseContext.Provider>
  );
}

function createGatehouse(props: GatehouseProviderProps, queryClient: QueryClient): Gatehouse {
  const baseUrl = props.baseUrl ?? window.location.origin;
  const client = createSessionClient({
    baseUrl,
    projectId: props.projectId,
    accessType: 'client',
    publishableClientKey: props.publishableClientKey,
    tokenStore: tokenStoreOf(props.tokenStore ?? 'cookie', props.projectId),
    // In a browser an expected refusal (a wrong password, an item not found) would be logged as a
    // failed request in the console: ask for Stack's override mode, as Stack's own browser SDK does.
    overrideErrorStatus: true,
  });
  // Anonymous users' tokens are accepted; useUser() hides them unless asked for `{ or: 'anonymous' }`.
  setApiClient({
    fetchJson: (path, init) =>
      client.fetchJson(path, { ...init, headers: { ...headersOf(init.headers), 'x-stack-allow-anonymous-user': 'true' } }),
  });
  const urls = resolveHandlerUrls(props.urls);
  const trustedOrigins = props.trustedOrigins ?? [];
  let anonymousSignUp: Promise<void> | undefined;

  const appNavigate = props.navigate ?? navigate;
  // An untrusted return target (a link that smuggled in another site) is an error page, not a silent fallback.
  const redirect = (url: string | null | undefined, fallback: string) => {
    if (!url) return appNavigate(fallback);
    if (isTrustedRedirect(url, trustedOrigins)) return appNavigate(url);
    appNavigate(untrustedRedirectPage(urls.error, url), { replace: true });
  };

  return {
    projectId: props.projectId,
    publishableClientKey: props.publishableClientKey,
    baseUrl,
    client,
    session: client.session,
    urls,
    trustedOrigins,
    navigate: appNavigate,
    redirect,
    completeSignIn(tokens: SignInTokens, kind, returnTo = new URLSearchParams(window.location.search).get(RETURN_TO_PARAM)) {
      client.session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
      redirect(returnTo, kind === 'sign-up' ? urls.afterSignUp : urls.afterSignIn);
    },
    ensureAnonymousSession() {
      if (client.session.getTokens().refreshToken) return Promise.resolve();
      // Loaded when first needed: most pages (the sign-in page among them) never sign up anonymously.
      anonymousSignUp ??= import('./generated/hooks/sign-up-anonymously.ts')
        .then(({ signUpAnonymously }) => signUpAnonymously())
        .then((tokens) => {
          client.session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
          return queryClient.resetQueries();
        })
        .finally(() => {
          anonymousSignUp = undefined;
        });
      return anonymousSignUp;
    },
  };
}

/** The project's default language (`config.default_language`) through the cache `useProject()` reads; English without one. */
function projectLanguage(queryClient: QueryClient): Promise<Language> {
  return queryClient
    .fetchQuery({ queryKey: getGetCurrentProjectQueryKey(), queryFn: ({ signal }) => getCurrentProject({ signal }), staleTime: 60_000 })
    .then(
      (project) => pickLanguage([project.config.default_language]),
      () => 'en' as const,
    );
}

function tokenStoreOf(choice: NonNullable<GatehouseProviderProps['tokenStore']>, projectId: string): TokenStore {
  if (typeof choice !== 'string') return choice;
  if (choice === 'memory') return createMemoryTokenStore();
  if (choice === 'localStorage') return createLocalStorageTokenStore({ projectId });
  return createCookieTokenStore({ projectId });
}

function headersOf(headers: HeadersInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers));
}
