import { KnownError, OauthProviderAccessDeniedError } from '@gatehouse/protocol/errors';
import type { Project } from '../../../tenancy/project.ts';
import { assertTrustedUrl } from '../../platform/projects/index.ts';

/** The URLs an authorize request (OAuth or SSO) may send the browser back to. */
export type FlowUrls = { redirectUri: string; errorRedirectUrl?: string | undefined; afterCallbackRedirectUrl?: string | undefined };

/**
 * Checks every URL of an authorize request against the project's trusted domains and returns the
 * callback URL without its fragment (what the flow stores and compares at the code exchange).
 */
export function trustedRedirectUri(project: Project, urls: FlowUrls): string {
  const redirectUri = urls.redirectUri.split('#')[0] as string;
  assertTrustedUrl(project, redirectUri);
  if (urls.errorRedirectUrl) assertTrustedUrl(project, urls.errorRedirectUrl);
  // A path on the app's own callback origin, or an absolute URL on a trusted domain.
  if (urls.afterCallbackRedirectUrl) assertTrustedUrl(project, new URL(urls.afterCallbackRedirectUrl, redirectUri).href);
  return redirectUri;
}

/** A catalogued failure sent to the flow's (still trusted) error redirect URL, as query parameters. */
export function errorRedirect(project: Project, flow: { errorRedirectUrl: string | null }, error: unknown): string | undefined {
  if (!flow.errorRedirectUrl || !(error instanceof KnownError)) return undefined;
  try {
    assertTrustedUrl(project, flow.errorRedirectUrl);
  } catch {
    return undefined;
  }
  const url = new URL(flow.errorRedirectUrl);
  // Only an OAuth provider refuses with access_denied; every other failure is the server's.
  url.searchParams.set('error', error instanceof OauthProviderAccessDeniedError ? 'access_denied' : 'server_error');
  url.searchParams.set('error_description', error.message);
  url.searchParams.set('errorCode', error.code);
  url.searchParams.set('message', error.message);
  url.searchParams.set('details', JSON.stringify(error.details ?? {}));
  return url.toString();
}
