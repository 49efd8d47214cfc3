import type { OAuthApplicationCreate } from '@gatehouse/react';
import { KnownError } from '@gatehouse/protocol/errors';
import type { Translate } from '../i18n/dashboard-i18n.ts';
import type { ClaimsTemplate } from './custom-claims-field.tsx';

/** The create form's fields as typed: redirect URIs one a line, scopes separated by spaces. */
export type OAuthAppForm = {
  name: string;
  type: 'confidential' | 'public';
  redirectUris: string;
  logoUrl: string;
  scopes: string;
  machineToMachine: boolean;
  /** The custom claims template as typed (JSON), parsed when the form is sent. */
  customClaims: string;
};

export const emptyOAuthAppForm: OAuthAppForm = {
  name: '',
  type: 'confidential',
  redirectUris: '',
  logoUrl: '',
  scopes: 'openid email profile',
  machineToMachine: false,
  customClaims: '',
};

export const linesOf = (text: string) =>
  text
    .split(/\s*\n\s*/)
    .map((line) => line.trim())
    .filter(Boolean);
export const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * The request body: sign-in (code + refresh) when there are redirect URIs, client credentials when asked for (a
 * confidential application only). The server checks the rest and answers catalogued errors the page shows.
 */
export function createBodyOf(form: OAuthAppForm, customClaims: ClaimsTemplate): OAuthApplicationCreate {
  const redirectUris = linesOf(form.redirectUris);
  const machine = form.type === 'confidential' && form.machineToMachine;
  const grantTypes = [
    ...(redirectUris.length > 0 || !machine ? (['authorization_code', 'refresh_token'] as const) : []),
    ...(machine ? (['client_credentials'] as const) : []),
  ];
  return {
    name: form.name.trim(),
    type: form.type,
    redirect_uris: redirectUris,
    grant_types: grantTypes,
    scopes: wordsOf(form.scopes),
    logo_url: form.logoUrl.trim() || null,
    custom_claims: customClaims,
  };
}

/** The catalogued error with the server's reason when it gives one (which redirect URI, which grant), for the form. */
export function withReason(error: unknown, t: Translate): unknown {
  if (error instanceof KnownError && error.code === 'INVALID_OAUTH_APPLICATION') {
    const reason = (error.details as { reason?: string } | undefined)?.reason;
    if (reason) return new Error(t('oauthApps.withReason', { message: error.message, reason }));
  }
  return error;
}
