import type { components } from '@gatehouse/protocol/api-types';
import type { AppCall } from './app-call.ts';
import type { SignInResponse } from './app-types.ts';
import {
  buildOAuthSignInUrl,
  type OAuthProvider,
  PUBLIC_CLIENT_SECRET,
  type OAuthSignInUrl,
  type OAuthSignInUrlOptions,
} from './oauth-sign-in-url.ts';
import { type PasskeyCeremonies, relyingPartyId } from './passkey-ceremonies.ts';
import * as op from '@gatehouse/protocol/operations';

export type OAuthSignInResult = components['schemas']['OAuthTokenResponse'];

/**
 * Every way into an account. Each one that signs in stores the session's tokens; when the user has
 * TOTP on, it throws MultiFactorAuthenticationRequiredError instead, whose `details.attempt_code`
 * finishes the sign-in with `signInWithMfa`.
 */
export type ClientSignIn = {
  /** Creates an account and signs it in (an anonymous user signed in here is upgraded in place, keeping its id). */
  signUpWithPassword(options: { email: string; password: string; verificationCallbackUrl?: string }): Promise<SignInResponse>;
  /** EmailPasswordMismatchError on wrong credentials (the same for an unknown email). */
  signInWithPassword(options: { email: string; password: string }): Promise<SignInResponse>;
  /** Emails a link `callbackUrl?code=…` and a 6-character code; `nonce` completes that code (`signInWithMagicLink(otp + nonce)`). */
  sendMagicLink(email: string, options: { callbackUrl: string }): Promise<{ nonce: string }>;
  /** Signs in (or up) with the link's code, or with the emailed 6 characters followed by the nonce. */
  signInWithMagicLink(code: string): Promise<SignInResponse>;
  /** The second factor: the `attempt_code` of MultiFactorAuthenticationRequiredError and a TOTP (or a recovery code). */
  signInWithMfa(options: { attemptCode: string; totp: string }): Promise<SignInResponse>;
  /** Signs in with a passkey of this site (the project must enable passkeys). */
  signInWithPasskey(): Promise<SignInResponse>;
  /** The provider's sign-in URL (PKCE); keep `codeVerifier` for `completeOAuthSignIn`. */
  getOAuthSignInUrl(provider: OAuthProvider | string, options: OAuthSignInUrlOptions): Promise<OAuthSignInUrl>;
  /**
   * On the `redirectUrl` page: exchanges the `code` of its query for the session (check its `state`
   * first). `redirectUrl` and `codeVerifier` must be those of the sign-in URL.
   */
  completeOAuthSignIn(options: { code: string; redirectUrl: string; codeVerifier: string }): Promise<OAuthSignInResult>;
  /** Emails a reset link `callbackUrl?code=…` if an account has the email (the answer never says). */
  sendPasswordResetEmail(email: string, options: { callbackUrl: string }): Promise<void>;
  /** Throws a VerificationError subclass when the code cannot be used. */
  verifyPasswordResetCode(code: string): Promise<void>;
  resetPassword(options: { code: string; password: string }): Promise<void>;
  /** Verifies a contact channel with the code of its verification link. */
  verifyEmail(code: string): Promise<void>;
};

export type SignInHost = {
  call: AppCall;
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string;
  passkeyCeremonies: PasskeyCeremonies;
  passkeyRpId?: string;
  /** Stores the tokens of a sign-in. */
  setTokens(tokens: { access_token: string; refresh_token: string }): void;
};

export function clientSignIn(host: SignInHost): ClientSignIn {
  const { call } = host;
  async function signedIn<T extends { access_token: string; refresh_token: string }>(response: Promise<T>): Promise<T> {
    const tokens = await response;
    host.setTokens(tokens);
    return tokens;
  }

  return {
    signUpWithPassword: ({ email, password, verificationCallbackUrl }) =>
      signedIn(call(op.signUpWithPassword, { body: { email, password, verification_callback_url: verificationCallbackUrl } })),
    signInWithPassword: ({ email, password }) => signedIn(call(op.signInWithPassword, { body: { email, password } })),
    sendMagicLink: async (email, { callbackUrl }) => {
      const { nonce } = await call(op.sendSignInCode, { body: { email, callback_url: callbackUrl } });
      return { nonce };
    },
    signInWithMagicLink: (code) => signedIn(call(op.signInWithCode, { body: { code } })),
    signInWithMfa: ({ attemptCode, totp }) => signedIn(call(op.signInWithMfa, { body: { type: 'totp', totp, code: attemptCode } })),
    signInWithPasskey: async () => {
      const { options_json: options, code } = await call(op.initiatePasskeyAuthentication);
      const rpId = relyingPartyId(host.passkeyRpId);
      const response = await host.passkeyCeremonies.get({ ...options, rpId });
      return signedIn(call(op.signInWithPasskey, { body: { authentication_response: response, code } }));
    },
    getOAuthSignInUrl: (provider, options) => buildOAuthSignInUrl(host, provider, options),
    completeOAuthSignIn: ({ code, redirectUrl, codeVerifier }) =>
      signedIn(
        call(op.exchangeOAuthToken, {
          body: {
            grant_type: 'authorization_code',
            code,
            redirect_uri: redirectUrl,
            code_verifier: codeVerifier,
            client_id: host.projectId,
            client_secret: host.publishableClientKey ?? PUBLIC_CLIENT_SECRET,
          },
        }),
      ),
    sendPasswordResetEmail: async (email, { callbackUrl }) => {
      await call(op.sendPasswordResetCode, { body: { email, callback_url: callbackUrl } });
    },
    verifyPasswordResetCode: async (code) => {
      await call(op.checkPasswordResetCode, { body: { code } });
    },
    resetPassword: async ({ code, password }) => {
      await call(op.resetPassword, { body: { code, password } });
    },
    verifyEmail: async (code) => {
      await call(op.verifyContactChannel, { body: { code } });
    },
  };
}
