import type { SystemEmailKind, SystemEmailVariables } from './built-in-emails.ts';

/** The variables of each email the platform sends itself, as its callers know them. */
export type EmailVariables = {
  email_verification: { link: string };
  password_reset: { link: string };
  sign_in_code: { link: string; otp: string };
  team_invitation: { link: string; teamName: string };
  sign_in_invitation: { link: string };
  /** What signed in, from where and when, as the reader should see them (already written out). */
  new_device_sign_in: { device: string; place: string; time: string };
};

export type EmailKind = keyof EmailVariables;

export type OutgoingEmail<K extends EmailKind> = {
  to: string;
  kind: K;
  variables: EmailVariables[K];
  /** The recipient as the template sees it (`user`); by default only the address is known. */
  user?: { id?: string; display_name: string | null };
  /** The recipient's own language (a user's `language`); the project's default language when null or absent. */
  language?: string | null;
};

/** Each kind's template (built-in-emails.ts) and the variables it is given. */
export const templateOf: {
  [K in EmailKind]: (
    variables: EmailVariables[K],
  ) => { [T in SystemEmailKind]: { kind: T; variables: SystemEmailVariables[T] } }[SystemEmailKind];
} = {
  email_verification: ({ link }) => ({ kind: 'email_verification', variables: { emailVerificationLink: link } }),
  password_reset: ({ link }) => ({ kind: 'password_reset', variables: { passwordResetLink: link } }),
  sign_in_code: ({ link, otp }) => ({ kind: 'magic_link', variables: { magicLink: link, otp } }),
  team_invitation: ({ link, teamName }) => ({
    kind: 'team_invitation',
    variables: { teamInvitationLink: link, teamDisplayName: teamName },
  }),
  sign_in_invitation: ({ link }) => ({ kind: 'sign_in_invitation', variables: { signInInvitationLink: link } }),
  new_device_sign_in: ({ device, place, time }) => ({
    kind: 'new_device_sign_in',
    variables: { deviceName: device, placeName: place, signInTime: time },
  }),
};

/** Subjects are headers, not HTML: a line break could start a new header. */
export const headerText = (value: string): string => value.replace(/[\r\n]+/g, ' ');
