import { UserFieldInvalidError } from '@gatehouse/protocol/errors';
import type { Schema } from '@gatehouse/protocol/operation-types';
import { PlainHttpError } from '../../../lib/plain-http-error.ts';
import { decodeTotpSecret } from '../../../lib/totp.ts';
import { isBcryptHash } from '../../../lib/passwords/password-hasher.ts';

type Create = Schema<'ServerUserCreate'>;
type Update = Schema<'ServerUserUpdate'>;

/**
 * The writable user fields of server create and update: every field of the spec's `ServerUserCreate`
 * and `ServerUserUpdate`, each optional, typed as either body allows it (`oauth_providers` is create only).
 */
export type UserWrite = {
  [Field in keyof Create | keyof Update]?:
    | (Field extends keyof Create ? Create[Field] : never)
    | (Field extends keyof Update ? Update[Field] : never);
};

/** A provider account linked by `POST /users`: `id` is the provider config id. */
export type ProviderAccountImport = Schema<'ServerUserCreateOAuthProvider'>;

/** Combinations the schema cannot express; answered in plain text as the protocol does. */
export function assertConsistentWrite(write: UserWrite, operation: 'create' | 'update'): void {
  if (write.password !== undefined && write.password !== null && write.password_hash !== undefined) {
    throw new PlainHttpError(400, 'Set either password or password_hash, not both.');
  }
  if (write.password_hash !== undefined && !isBcryptHash(write.password_hash)) {
    throw new UserFieldInvalidError(
      { field: 'password_hash' },
      'password_hash must be a bcrypt hash in Modular Crypt Format ($2a$, $2b$ or $2y$).',
    );
  }
  const noEmail = write.primary_email === null || (operation === 'create' && write.primary_email === undefined);
  if (noEmail && (write.primary_email_verified !== undefined || write.primary_email_auth_enabled !== undefined)) {
    throw new PlainHttpError(400, 'primary_email_verified and primary_email_auth_enabled need a primary_email.');
  }
  if (write.passkey_auth_enabled === true) {
    throw new UserFieldInvalidError(
      { field: 'passkey_auth_enabled' },
      'passkey_auth_enabled can only be turned off; register a passkey to turn it on.',
    );
  }
  if (typeof write.totp_secret_base64 === 'string' && !decodeTotpSecret(write.totp_secret_base64)) {
    throw new UserFieldInvalidError({ field: 'totp_secret_base64' }, 'totp_secret_base64 must be the base64 of a 16 to 64 byte secret.');
  }
}

/** JSON columns are written as JSON text; `undefined` leaves the column as it is. */
export const jsonColumn = (value: unknown): string | null | undefined => (value === undefined ? undefined : JSON.stringify(value));
