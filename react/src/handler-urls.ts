/** Where the handler pages live and where the app sends users after each step. */
export type HandlerUrls = {
  handler: string;
  home: string;
  signIn: string;
  signUp: string;
  signOut: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
  emailVerification: string;
  forgotPassword: string;
  passwordReset: string;
  oauthCallback: string;
  magicLinkCallback: string;
  accountSettings: string;
  error: string;
  teamInvitation: string;
  mfa: string;
  cliAuthConfirm: string;
  oauthConsent: string;
};

export type HandlerUrlOptions = Partial<Omit<HandlerUrls, 'handler'>> & {
  /** Base path of the handler pages; must start with `/` (default `/handler`). */
  handlerPath?: string;
};

/** The handler page names, as they appear in the URL after the handler path. */
export const handlerPages = {
  signIn: 'sign-in',
  signUp: 'sign-up',
  signOut: 'sign-out',
  emailVerification: 'email-verification',
  forgotPassword: 'forgot-password',
  passwordReset: 'password-reset',
  oauthCallback: 'oauth-callback',
  magicLinkCallback: 'magic-link-callback',
  accountSettings: 'account-settings',
  error: 'error',
  teamInvitation: 'team-invitation',
  mfa: 'mfa',
  cliAuthConfirm: 'cli-auth-confirm',
  oauthConsent: 'oauth-consent',
} as const;

export type HandlerPage = (typeof handlerPages)[keyof typeof handlerPages];

/** Defaults: pages under the handler path, home `/`, after-sign-up → after-sign-in → home. */
export function resolveHandlerUrls(options: HandlerUrlOptions = {}): HandlerUrls {
  const handler = (options.handlerPath ?? '/handler').replace(/\/+$/, '') || '/';
  if (!handler.startsWith('/')) throw new Error(`handlerPath must start with "/" (got "${options.handlerPath}")`);
  const page = (name: HandlerPage) => `${handler === '/' ? '' : handler}/${name}`;
  const pages = Object.fromEntries(Object.entries(handlerPages).map(([key, name]) => [key, page(name)])) as Record<
    keyof typeof handlerPages,
    string
  >;
  const home = options.home ?? '/';
  const afterSignIn = options.afterSignIn ?? home;
  return {
    ...pages,
    ...withoutUndefined(options),
    handler,
    home,
    afterSignIn,
    afterSignUp: options.afterSignUp ?? afterSignIn,
    afterSignOut: options.afterSignOut ?? home,
  };
}

/** The page a path names, when it lies under the handler path. */
export function handlerPageOf(pathname: string, urls: HandlerUrls): HandlerPage | undefined {
  const prefix = urls.handler === '/' ? '/' : `${urls.handler}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const name = pathname.slice(prefix.length).replace(/\/+$/, '');
  return (Object.values(handlerPages) as string[]).includes(name) ? (name as HandlerPage) : undefined;
}

function withoutUndefined(options: HandlerUrlOptions): Partial<HandlerUrls> {
  const { handlerPath: _handlerPath, ...urls } = options;
  return Object.fromEntries(Object.entries(urls).filter(([, value]) => value !== undefined));
}
