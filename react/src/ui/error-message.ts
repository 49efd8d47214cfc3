import { ConnectionError } from '@gatehouse/client';
import { KnownError } from '@gatehouse/protocol/errors';

/** What a person should read for the errors forms meet; other errors show the server's message. */
const friendlyMessages: Record<string, (details: Record<string, unknown>) => string> = {
  USER_EMAIL_ALREADY_EXISTS: () => 'An account with this email already exists. Sign in instead.',
  PASSWORD_TOO_SHORT: (details) => `The password must be at least ${details.min_length ?? 8} characters long.`,
  PASSWORD_TOO_LONG: (details) => `The password must be at most ${details.max_length ?? 70} characters long.`,
  PASSWORD_CONFIRMATION_MISMATCH: () => 'The current password is wrong.',
  USER_DOES_NOT_HAVE_PASSWORD: () => 'This account has no password yet.',
  PASSWORD_AUTHENTICATION_NOT_ENABLED: () => 'Password sign-in is turned off for this app.',
  SIGN_UP_NOT_ENABLED: () => 'Sign-up is turned off for this app.',
  VERIFICATION_CODE_NOT_FOUND: () => 'This code is invalid. Ask for a new one.',
  VERIFICATION_CODE_EXPIRED: () => 'This code has expired. Ask for a new one.',
  VERIFICATION_CODE_ALREADY_USED: () => 'This code has already been used.',
  VERIFICATION_CODE_MAX_ATTEMPTS_REACHED: () => 'Too many wrong attempts. Ask for a new code.',
  EMAIL_ALREADY_VERIFIED: () => 'This email is already verified.',
  TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED: () => 'Finish setting up your account before joining a team.',
  USER_NOT_FOUND: () => 'No such user.',
  BOT_CHALLENGE_REQUIRED: () => 'Complete the check above to continue.',
  BOT_CHALLENGE_FAILED: (details) =>
    typeof details.message === 'string' ? details.message : 'The check above was not passed. Try it again.',
};

export function errorMessageOf(error: unknown): string {
  if (error instanceof KnownError) {
    const friendly = friendlyMessages[error.code];
    return friendly ? friendly((error.details ?? {}) as Record<string, unknown>) : error.message;
  }
  if (error instanceof ConnectionError) return error.message;
  if (error instanceof Error) return error.message || 'Something went wrong. Try again.';
  return 'Something went wrong. Try again.';
}
