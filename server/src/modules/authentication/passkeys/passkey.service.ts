import {
  PasskeyAuthenticationFailedError,
  PasskeyAuthenticationNotEnabledError,
  PasskeyRegistrationFailedError,
  VerificationCodeNotFoundError,
} from '@gatehouse/protocol/errors';
import type { components } from '@gatehouse/protocol/api-types';
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { randomUUID } from 'node:crypto';
import type { DbHandle } from '../../../db/handle.ts';
import type { Project } from '../../../tenancy/project.ts';
import type { SignInService, SignInTokens } from '../sign-in/index.ts';
import type { UserRecord } from '../../../tenancy/user-record.ts';
import type { UserService } from '../../identity/users/index.ts';
import type { VerificationCodeService } from '../verification-codes/index.ts';
import {
  advanceCounter,
  deletePasskeysOfUser,
  findPasskeyByCredentialId,
  listPasskeysOfUser,
  upsertPasskey,
} from './passkey.repository.ts';
import { isValidUserHandle, relyingPartyOf, relyingPartySentinel, sameBytes, userHandleOf } from './webauthn-rules.ts';

type CreationOptions = components['schemas']['PasskeyCreationOptions'];
type RequestOptions = components['schemas']['PasskeyRequestOptions'];
type RegistrationResponse = components['schemas']['PasskeyRegistrationResponse'];
type AuthenticationResponse = components['schemas']['PasskeyAuthenticationResponse'];

/** The WebAuthn timeout the browser gets; challenge codes live 5 seconds longer (docs/protocol/endpoints.md §4). */
export const ceremonyTimeoutMillis = 60_000;
const challengeLifetimeMillis = ceremonyTimeoutMillis + 5_000;

type RegistrationChallenge = { user_id: string; challenge: string };
type AuthenticationChallenge = { challenge: string };

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server: challenges travel as single-use verification
 * codes; the origin and relying-party id rules are in webauthn-rules.ts (and the spec).
 */
export class PasskeyService {
  constructor(
    private readonly db: DbHandle,
    private readonly users: UserService,
    private readonly codes: VerificationCodeService,
    private readonly signIn: SignInService,
  ) {}

  /** Removes the user's passkeys (passkey sign-in turned off), in the caller's transaction. */
  async deleteAllOfUser(trx: DbHandle, project: Project, userId: string): Promise<void> {
    await deletePasskeysOfUser(trx, project.id, userId);
  }

  async initiateRegistration(project: Project, user: UserRecord): Promise<{ options_json: CreationOptions; code: string }> {
    assertPasskeysEnabled(project);
    const existing = await listPasskeysOfUser(this.db, project.id, user.id);
    const name = user.primary_email ?? user.display_name ?? 'User';
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: project.display_name,
      rpID: relyingPartySentinel,
      userID: Buffer.from(userHandleOf(user.id), 'base64url'),
      userName: name,
      userDisplayName: user.display_name ?? name,
      timeout: ceremonyTimeoutMillis,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: passkey.credential_id, transports: passkey.transports })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    const challenge: RegistrationChallenge = { user_id: user.id, challenge: options.challenge };
    const { code } = await this.codes.issue(project.id, 'passkey_registration', challenge, challengeLifetimeMillis);
    // The options as the spec declares them (the library's empty `hints` is left out).
    const options_json: CreationOptions = {
      challenge: options.challenge,
      rp: { name: options.rp.name, id: relyingPartySentinel },
      user: options.user,
      pubKeyCredParams: options.pubKeyCredParams.map(({ alg }) => ({ type: 'public-key', alg })),
      timeout: ceremonyTimeoutMillis,
      attestation: 'none',
      excludeCredentials: (options.excludeCredentials ?? []).map(({ id, transports }) => ({
        id,
        type: 'public-key',
        ...(transports ? { transports: [...transports] } : {}),
      })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
      extensions: { credProps: true },
    };
    return { options_json, code };
  }

  /** Verifies a registration response against the user's challenge and stores the credential. */
  async register(project: Project, user: UserRecord, credential: RegistrationResponse, code: string): Promise<{ user_handle: string }> {
    assertPasskeysEnabled(project);
    const issued = (await this.codes.redeem(project.id, 'passkey_registration', code, { peek: true })) as RegistrationChallenge;
    // Another user's challenge does not exist for this one (and stays usable by its owner).
    if (issued.user_id !== user.id) throw new VerificationCodeNotFoundError();
    await this.codes.redeem(project.id, 'passkey_registration', code);
    const failed = (reason: string) => new PasskeyRegistrationFailedError(`Passkey registration failed: ${reason}`);
    const relyingParty = relyingPartyOf(project, credential.response.clientDataJSON);
    if (!relyingParty) throw failed('the origin is not allowed.');
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verification = await (await webauthn()).verifyRegistrationResponse({
        response: credential as unknown as RegistrationResponseJSON,
        expectedChallenge: issued.challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.rpId,
        // Passkeys need not prove user verification here (userVerification is only preferred).
        requireUserVerification: false,
      });
    } catch (error) {
      throw failed(messageOf(error));
    }
    if (!verification.verified) throw failed('the response does not verify.');
    const { credential: verified, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    const userHandle = userHandleOf(user.id);
    const stored = await upsertPasskey(this.db, project.id, {
      id: randomUUID(),
      user_id: user.id,
      credential_id: verified.id,
      public_key: Buffer.from(verified.publicKey),
      counter: verified.counter,
      transports: JSON.stringify(verified.transports ?? []),
      user_handle: userHandle,
      rp_id: relyingParty.rpId,
      device_type: credentialDeviceType,
      backed_up: credentialBackedUp,
    });
    if (!stored) throw failed('this passkey belongs to another user.');
    return { user_handle: userHandle };
  }

  async initiateAuthentication(project: Project): Promise<{ options_json: RequestOptions; code: string }> {
    assertPasskeysEnabled(project);
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: relyingPartySentinel,
      allowCredentials: [],
      userVerification: 'preferred',
      timeout: ceremonyTimeoutMillis,
    });
    const challenge: AuthenticationChallenge = { challenge: options.challenge };
    const { code } = await this.codes.issue(project.id, 'passkey_authentication', challenge, challengeLifetimeMillis);
    return {
      options_json: {
        challenge: options.challenge,
        rpId: relyingPartySentinel,
        allowCredentials: [],
        timeout: ceremonyTimeoutMillis,
        userVerification: 'preferred',
      },
      code,
    };
  }

  /** Verifies an assertion against the challenge of `code` and the stored passkey, then signs its user in. */
  async signInWithPasskey(
    project: Project,
    response: AuthenticationResponse,
    code: string,
    ip: string,
  ): Promise<SignInTokens & { is_new_user: false }> {
    assertPasskeysEnabled(project);
    const { challenge } = (await this.codes.redeem(project.id, 'passkey_authentication', code)) as AuthenticationChallenge;
    const failed = (reason: string) => new PasskeyAuthenticationFailedError(`Passkey authentication failed: ${reason}`);
    const userHandle = response.response.userHandle ?? undefined;
    if (userHandle !== undefined && !isValidUserHandle(userHandle)) throw failed('the user handle must be 1 to 64 bytes.');
    const passkey = await findPasskeyByCredentialId(this.db, project.id, response.id);
    if (!passkey) throw failed('passkey not found.');
    if (userHandle !== undefined && !sameBytes(userHandle, passkey.user_handle))
      throw failed('the user handle does not match the passkey.');
    const relyingParty = relyingPartyOf(project, response.response.clientDataJSON);
    if (!relyingParty) throw failed('the origin is not allowed.');
    const counter = Number(passkey.counter);
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verification = await (await webauthn()).verifyAuthenticationResponse({
        response: response as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.rpId,
        credential: { id: passkey.credential_id, publicKey: new Uint8Array(passkey.public_key), counter, transports: passkey.transports },
        requireUserVerification: false,
      });
    } catch (error) {
      throw failed(messageOf(error));
    }
    if (!verification.verified) throw failed('the signature does not verify with the public key of the passkey.');
    if (!(await advanceCounter(this.db, project.id, passkey.id, counter, verification.authenticationInfo.newCounter))) {
      throw failed('the signature counter did not grow.');
    }
    const user = await this.users.get(project.id, passkey.user_id);
    return { ...(await this.signIn.signInWithMfaCheck(project, user, { ip })), is_new_user: false };
  }
}

function assertPasskeysEnabled(project: Project): void {
  if (!project.config.auth.passkey.allowSignIn) throw new PasskeyAuthenticationNotEnabledError();
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** @simplewebauthn/server (and its ASN.1 and CBOR libraries) loads on the first passkey ceremony, not at start-up. */
const webauthn = () => import('@simplewebauthn/server');
