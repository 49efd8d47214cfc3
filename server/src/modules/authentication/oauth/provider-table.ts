import { type OAuthProviderType, oauthProviderTypes } from '@gatehouse/protocol/oauth-providers';
import type { OAuthProviderConfig } from '../../../tenancy/project-config.ts';

export type ProviderType = OAuthProviderType;

export const providerTypes: readonly ProviderType[] = oauthProviderTypes;

/** The providers the operator may offer shared (development) keys for. */
export const sharedKeyProviderTypes: readonly ProviderType[] = ['google', 'github', 'microsoft', 'spotify'];

export const isProviderType = (value: string): value is ProviderType => (providerTypes as readonly string[]).includes(value);

/** Where a provider lives; each can be overridden (see oauth-settings.ts), e.g. to test against a local OIDC server. */
export type ProviderEndpoints = {
  issuer: string;
  authorizationUrl: string;
  tokenUrl: string;
  /** The profile endpoint; without one the profile comes from the ID token (Apple). */
  userinfoUrl?: string;
  /** A second endpoint listing the account's emails with their verification (GitHub, Bitbucket). */
  emailsUrl?: string;
};

/** What the platform keeps of a provider account. */
export type ProviderProfile = {
  accountId: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
};

type Json = Record<string, unknown>;

export type ProviderSpec = {
  endpoints: (config: OAuthProviderConfig) => ProviderEndpoints;
  /** Scopes always requested; `provider_scope` adds to them. */
  baseScope: string;
  /** How the client authenticates at the token endpoint. */
  tokenAuth: 'basic' | 'post';
  authorizationParams?: Record<string, string>;
  /** Extra headers of the profile requests. */
  userinfoHeaders?: (clientId: string) => Record<string, string>;
  /** The profile from the userinfo answer (or the ID token's claims), and the emails answer when there is one. */
  profile: (userinfo: Json, emails: unknown) => ProviderProfile;
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const id = (value: unknown): string => {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number') return String(value);
  throw new Error('the provider answered a profile without an account id');
};
const object = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const truthy = (value: unknown): boolean => value === true || value === 'true';

/** Standard OpenID Connect claims (Google, LinkedIn, Apple's ID token). */
export const oidcProfile = (claims: Json): ProviderProfile => ({
  accountId: id(claims.sub),
  email: text(claims.email),
  emailVerified: truthy(claims.email_verified),
  displayName: text(claims.name),
  profileImageUrl: text(claims.picture),
});

/** The primary email of an email list, given how the provider names the fields. */
function primaryEmail(list: unknown, fields: { email: string; primary: string; verified: string }) {
  const entries = (Array.isArray(list) ? list : []).map(object);
  const primary = entries.find((entry) => entry[fields.primary] === true) ?? entries[0];
  return primary && text(primary[fields.email])
    ? { email: text(primary[fields.email]), verified: primary[fields.verified] === true }
    : null;
}

const fixed = (endpoints: ProviderEndpoints) => () => endpoints;

/**
 * Per provider: endpoints, base scopes, client authentication and how its profile maps to
 * id / email / name / picture. Emails count as verified only where the provider says so.
 */
export const providerTable: Record<ProviderType, ProviderSpec> = {
  google: {
    endpoints: fixed({
      issuer: 'https://accounts.google.com',
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
    }),
    baseScope: 'openid email profile',
    tokenAuth: 'basic',
    // A refresh token on every consent, for connected accounts.
    authorizationParams: { access_type: 'offline', prompt: 'consent' },
    profile: oidcProfile,
  },
  github: {
    endpoints: fixed({
      issuer: 'https://github.com',
      authorizationUrl: 'https://github.com/login/oauth/authorize',
      tokenUrl: 'https://github.com/login/oauth/access_token',
      userinfoUrl: 'https://api.github.com/user',
      emailsUrl: 'https://api.github.com/user/emails',
    }),
    baseScope: 'user:email',
    tokenAuth: 'post',
    profile: (user, emails) => {
      const primary = primaryEmail(emails, { email: 'email', primary: 'primary', verified: 'verified' });
      return {
        accountId: id(user.id),
        email: primary?.email ?? text(user.email),
        emailVerified: primary?.verified ?? false,
        displayName: text(user.name) ?? text(user.login),
        profileImageUrl: text(user.avatar_url),
      };
    },
  },
  microsoft: {
    endpoints: (config) => {
      const tenant = typeof config.microsoftTenantId === 'string' && config.microsoftTenantId ? config.microsoftTenantId : 'common';
      return {
        issuer: `https://login.microsoftonline.com/${tenant}/v2.0`,
        authorizationUrl: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`,
        tokenUrl: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
        userinfoUrl: 'https://graph.microsoft.com/v1.0/me',
      };
    },
    // No `openid`: with the `common` tenant the ID token's issuer names the user's tenant, not this one.
    baseScope: 'User.Read offline_access',
    tokenAuth: 'post',
    profile: (user) => ({
      accountId: id(user.id),
      email: text(user.mail),
      emailVerified: false,
      displayName: text(user.displayName),
      profileImageUrl: null,
    }),
  },
  spotify: {
    endpoints: fixed({
      issuer: 'https://accounts.spotify.com',
      authorizationUrl: 'https://accounts.spotify.com/authorize',
      tokenUrl: 'https://accounts.spotify.com/api/token',
      userinfoUrl: 'https://api.spotify.com/v1/me',
    }),
    baseScope: 'user-read-email user-read-private',
    tokenAuth: 'basic',
    profile: (user) => ({
      accountId: id(user.id),
      email: text(user.email),
      emailVerified: false,
      displayName: text(user.display_name),
      profileImageUrl: text(object((Array.isArray(user.images) ? user.images : [])[0]).url),
    }),
  },
  facebook: {
    endpoints: fixed({
      issuer: 'https://www.facebook.com',
      authorizationUrl: 'https://www.facebook.com/v19.0/dialog/oauth',
      tokenUrl: 'https://graph.facebook.com/v19.0/oauth/access_token',
      userinfoUrl: 'https://graph.facebook.com/v19.0/me?fields=id,name,email,picture',
    }),
    baseScope: 'public_profile email',
    tokenAuth: 'post',
    profile: (user) => ({
      accountId: id(user.id),
      email: text(user.email),
      emailVerified: false,
      displayName: text(user.name),
      profileImageUrl: text(object(object(user.picture).data).url),
    }),
  },
  discord: {
    endpoints: fixed({
      issuer: 'https://discord.com',
      authorizationUrl: 'https://discord.com/oauth2/authorize',
      tokenUrl: 'https://discord.com/api/oauth2/token',
      userinfoUrl: 'https://discord.com/api/users/@me',
    }),
    baseScope: 'identify email',
    tokenAuth: 'basic',
    profile: (user) => ({
      accountId: id(user.id),
      email: text(user.email),
      emailVerified: user.verified === true,
      displayName: text(user.global_name) ?? text(user.username),
      profileImageUrl: text(user.avatar) ? `https://cdn.discordapp.com/avatars/${id(user.id)}/${user.avatar}.png` : null,
    }),
  },
  gitlab: {
    endpoints: fixed({
      issuer: 'https://gitlab.com',
      authorizationUrl: 'https://gitlab.com/oauth/authorize',
      tokenUrl: 'https://gitlab.com/oauth/token',
      userinfoUrl: 'https://gitlab.com/api/v4/user',
    }),
    baseScope: 'read_user',
    tokenAuth: 'post',
    profile: (user) => ({
      accountId: id(user.id),
      email: text(user.email),
      emailVerified: text(user.confirmed_at) !== null,
      displayName: text(user.name) ?? text(user.username),
      profileImageUrl: text(user.avatar_url),
    }),
  },
  bitbucket: {
    endpoints: fixed({
      issuer: 'https://bitbucket.org',
      authorizationUrl: 'https://bitbucket.org/site/oauth2/authorize',
      tokenUrl: 'https://bitbucket.org/site/oauth2/access_token',
      userinfoUrl: 'https://api.bitbucket.org/2.0/user',
      emailsUrl: 'https://api.bitbucket.org/2.0/user/emails',
    }),
    baseScope: 'account email',
    tokenAuth: 'basic',
    profile: (user, emails) => {
      const primary = primaryEmail(object(emails).values, { email: 'email', primary: 'is_primary', verified: 'is_confirmed' });
      return {
        accountId: id(user.account_id ?? user.uuid),
        email: primary?.email ?? null,
        emailVerified: primary?.verified ?? false,
        displayName: text(user.display_name) ?? text(user.username),
        profileImageUrl: text(object(object(user.links).avatar).href),
      };
    },
  },
  linkedin: {
    endpoints: fixed({
      issuer: 'https://www.linkedin.com/oauth',
      authorizationUrl: 'https://www.linkedin.com/oauth/v2/authorization',
      tokenUrl: 'https://www.linkedin.com/oauth/v2/accessToken',
      userinfoUrl: 'https://api.linkedin.com/v2/userinfo',
    }),
    baseScope: 'openid profile email',
    tokenAuth: 'post',
    profile: oidcProfile,
  },
  apple: {
    endpoints: fixed({
      issuer: 'https://appleid.apple.com',
      authorizationUrl: 'https://appleid.apple.com/auth/authorize',
      tokenUrl: 'https://appleid.apple.com/auth/token',
    }),
    baseScope: 'openid name email',
    tokenAuth: 'post',
    // Apple posts the answer (a form) when name or email is asked for.
    authorizationParams: { response_mode: 'form_post' },
    profile: oidcProfile,
  },
  x: {
    endpoints: fixed({
      issuer: 'https://x.com',
      authorizationUrl: 'https://x.com/i/oauth2/authorize',
      tokenUrl: 'https://api.x.com/2/oauth2/token',
      userinfoUrl: 'https://api.x.com/2/users/me?user.fields=profile_image_url',
    }),
    baseScope: 'users.read tweet.read offline.access',
    tokenAuth: 'basic',
    profile: (answer) => {
      const user = object(answer.data);
      return {
        accountId: id(user.id),
        email: null,
        emailVerified: false,
        displayName: text(user.name) ?? text(user.username),
        profileImageUrl: text(user.profile_image_url),
      };
    },
  },
  twitch: {
    endpoints: fixed({
      issuer: 'https://id.twitch.tv/oauth2',
      authorizationUrl: 'https://id.twitch.tv/oauth2/authorize',
      tokenUrl: 'https://id.twitch.tv/oauth2/token',
      userinfoUrl: 'https://api.twitch.tv/helix/users',
    }),
    baseScope: 'user:read:email',
    tokenAuth: 'post',
    userinfoHeaders: (clientId) => ({ 'client-id': clientId }),
    profile: (answer) => {
      const user = object((Array.isArray(answer.data) ? answer.data : [])[0]);
      return {
        accountId: id(user.id),
        email: text(user.email),
        emailVerified: false,
        displayName: text(user.display_name) ?? text(user.login),
        profileImageUrl: text(user.profile_image_url),
      };
    },
  },
};
