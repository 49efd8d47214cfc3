import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A WebAuthn authenticator in software, so tests drive registration and sign-in through
 * @simplewebauthn/server's real verification: ES256 (P-256) keys, `none` attestation objects in CBOR,
 * and assertion signatures over authenticatorData || SHA-256(clientDataJSON).
 */

type CreationOptions = { challenge: string; rp: { id: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId: string };

export type StoredCredential = {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
};

/** What a test may change in a ceremony to make it fail in one precise way. */
export type CeremonyOverrides = {
  /** The page's origin (clientDataJSON.origin); default `https://<rp id>`. */
  origin?: string;
  /** The rp id the authenticator signs for (rpIdHash); default the rp id of the options. */
  rpId?: string;
  challenge?: string;
  type?: string;
  /** The signature counter to report, default the stored counter + 1 (registration: 0). */
  counter?: number;
  /** The user handle to return (base64url), null for none; default the credential's. */
  userHandle?: string | null;
  /** Sign with another key than the credential's. */
  signingKey?: KeyObject;
  /** Flip a bit of authenticatorData after signing. */
  tamper?: boolean;
};

const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 };
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const base64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The credential public key as a COSE_Key map: EC2, ES256, P-256, x, y. */
function coseKeyOf(privateKey: KeyObject): Uint8Array {
  const jwk = privateKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x as string, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y as string, 'base64url'))],
    ]),
  );
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export function newSigningKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /**
   * navigator.credentials.create(): a new credential and its RegistrationResponseJSON; with
   * `existing`, an attestation of a credential the authenticator already holds (same id and key).
   */
  register(options: CreationOptions, overrides: CeremonyOverrides = {}, existing?: StoredCredential) {
    const rpId = overrides.rpId ?? options.rp.id;
    const privateKey = existing?.privateKey ?? newSigningKey();
    const credentialId = existing ? Buffer.from(existing.id, 'base64url') : randomBytes(32);
    const counter = overrides.counter ?? 0;
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([flags.userPresent | flags.userVerified | flags.attestedCredentialData]),
      counterBytes(counter),
      Buffer.alloc(16), // AAGUID: none
      Buffer.from([credentialId.length >> 8, credentialId.length & 0xff]),
      credentialId,
      coseKeyOf(privateKey),
    ]);
    const attestationStatement = new Map<string, string>();
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', attestationStatement],
        ['authData', new Uint8Array(authenticatorData)],
      ]),
    );
    const id = base64url(credentialId);
    const origin = overrides.origin ?? `https://${rpId}`;
    const credential: StoredCredential = existing ?? { id, privateKey, rpId, userHandle: options.user.id, counter };
    if (!existing) this.credentials.push(credential);
    return {
      credential,
      response: {
        id,
        rawId: id,
        type: 'public-key' as const,
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          clientDataJSON: base64url(clientData(overrides.type ?? 'webauthn.create', overrides.challenge ?? options.challenge, origin)),
          attestationObject: base64url(attestationObject),
          transports: ['internal'],
        },
      },
    };
  }

  /** navigator.credentials.get(): an assertion by `credential` (default the newest one). */
  authenticate(options: RequestOptions, credential = this.credentials.at(-1), overrides: CeremonyOverrides = {}) {
    if (!credential) throw new Error('the authenticator holds no credential');
    const rpId = overrides.rpId ?? options.rpId;
    const counter = overrides.counter ?? credential.counter + 1;
    if (overrides.counter === undefined) credential.counter = counter;
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([flags.userPresent | flags.userVerified]), counterBytes(counter)]);
    const clientDataJSON = clientData(
      overrides.type ?? 'webauthn.get',
      overrides.challenge ?? options.challenge,
      overrides.origin ?? `https://${rpId}`,
    );
    // ES256: ECDSA over authenticatorData || SHA-256(clientDataJSON), DER-encoded.
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      overrides.signingKey ?? credential.privateKey,
    );
    // The user-verified flag, after the 32-byte rpIdHash: signed data that no longer matches its signature.
    if (overrides.tamper) authenticatorData.writeUInt8(authenticatorData.readUInt8(32) ^ flags.userVerified, 32);
    const userHandle = overrides.userHandle === undefined ? credential.userHandle : overrides.userHandle;
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authenticatorData),
        signature: base64url(signature),
        ...(userHandle === null ? {} : { userHandle }),
      },
    };
  }
}
