import { PasswordTooLongError, PasswordTooShortError } from '@gatehouse/protocol/errors';

/** Documented in the spec (`Password` schema): at least 8 characters (NIST SP 800-63B), at most 70. */
export const passwordMinLength = 8;
export const passwordMaxLength = 70;

export function assertPasswordPolicy(password: string): void {
  const length = [...password].length;
  if (length < passwordMinLength) throw new PasswordTooShortError({ min_length: passwordMinLength });
  if (length > passwordMaxLength) throw new PasswordTooLongError({ maxLength: passwordMaxLength });
}
