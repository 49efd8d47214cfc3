import type { components } from './generated/api-types.ts';

/** The OAuth providers the spec names (`OAuthProviderType`). */
export type OAuthProviderType = components['schemas']['OAuthProviderType'];

/** Each provider's name as people read it; a record over the spec's type, so the typecheck fails if the two drift. */
export const oauthProviderNames: Readonly<Record<OAuthProviderType, string>> = {
  google: 'Google',
  github: 'GitHub',
  microsoft: 'Microsoft',
  spotify: 'Spotify',
  facebook: 'Facebook',
  discord: 'Discord',
  gitlab: 'GitLab',
  bitbucket: 'Bitbucket',
  linkedin: 'LinkedIn',
  apple: 'Apple',
  x: 'X',
  twitch: 'Twitch',
};

/** Every provider type, in the order the dashboard lists them. */
export const oauthProviderTypes = Object.keys(oauthProviderNames) as readonly OAuthProviderType[];
