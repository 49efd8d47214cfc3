/** The OpenID scopes every project's provider knows; applications add their own API scopes. */
export const oidcScopes: readonly string[] = ['openid', 'offline_access', 'email', 'profile'];

/** Which claims each OpenID scope releases (ID token and userinfo). */
export const standardClaims = {
  openid: ['sub'],
  email: ['email', 'email_verified'],
  profile: ['name', 'picture'],
};

/** What the consent page says for each scope (an application's own scopes are shown by name). */
export const scopeDescriptions: Record<string, string> = {
  openid: 'Know who you are (your user id)',
  offline_access: 'Stay connected when you are not using it',
  email: 'See your email address',
  profile: 'See your name and profile picture',
};
