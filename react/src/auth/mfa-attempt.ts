import { KnownError, type MultiFactorAuthenticationRequiredError } from '@gatehouse/protocol/errors';
import type { Gatehouse } from '../gatehouse-context.ts';
import { RETURN_TO_PARAM } from '../navigation.ts';

const storageKey = (projectId: string) => `gatehouse-mfa-attempt-${projectId}`;

/**
 * A first factor that answered MULTI_FACTOR_AUTHENTICATION_REQUIRED: the attempt code waits in
 * session storage (this tab only, gone when it closes) while the mfa page asks for the second factor.
 * Returns false for any other error, which the caller shows.
 */
export function continueWithMfa(gatehouse: Gatehouse, error: unknown): boolean {
  // By its code, not its class: the class (with its long English message) would come with every sign-in page.
  if (!(error instanceof KnownError) || error.code !== 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') return false;
  const { details } = error as MultiFactorAuthenticationRequiredError;
  sessionStorage.setItem(storageKey(gatehouse.projectId), details.attempt_code);
  const target = new URL(gatehouse.urls.mfa, window.location.href);
  const returnTo = new URLSearchParams(window.location.search).get(RETURN_TO_PARAM);
  if (returnTo) target.searchParams.set(RETURN_TO_PARAM, returnTo);
  gatehouse.navigate(target.href);
  return true;
}

export function takeMfaAttemptCode(projectId: string): string | null {
  return sessionStorage.getItem(storageKey(projectId));
}

export function clearMfaAttemptCode(projectId: string): void {
  sessionStorage.removeItem(storageKey(projectId));
}
