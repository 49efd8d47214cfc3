import { defaultEmailThemeId } from '../../../tenancy/project-config.ts';
import { newDeviceSignInTemplate } from './new-device-sign-in-template.ts';

/**
 * The themes and templates every project starts with, as TSX sources under fixed ids (Stack Auth's).
 * A project's config (`emails.themes`, `emails.templates`) replaces one by using its id; deleting
 * the project's version brings the built-in one back. Every email the platform sends itself goes
 * through the template of its kind here (or the project's edit of it) and the selected theme.
 */

export const lightThemeId = defaultEmailThemeId;
export const darkThemeId = 'a0172b5d-cff0-463b-83bb-85124697373a';

export type SystemEmailKind =
  | 'email_verification'
  | 'password_reset'
  | 'magic_link'
  | 'team_invitation'
  | 'sign_in_invitation'
  | 'new_device_sign_in';

/** The template id of each email the platform sends itself. */
export const systemTemplateIds: Record<SystemEmailKind, string> = {
  email_verification: 'e7d009ce-8d47-4528-b245-5bf119f2ffa3',
  password_reset: 'a70fb3a4-56c1-4e42-af25-49d25603abd0',
  magic_link: '822687fe-8d0a-4467-a0d1-416b6e639478',
  team_invitation: 'e84de395-2076-4831-9c19-8e9a96a868e4',
  sign_in_invitation: '066dd73c-36da-4fd0-b6d6-ebf87683f8bc',
  /** Gatehouse's own (Stack has no such email). */
  new_device_sign_in: '5d3c9b1e-7a42-4f8e-b0c6-2e9d41a7f853',
};

/** The variables each system template is given. */
export type SystemEmailVariables = {
  email_verification: { emailVerificationLink: string };
  password_reset: { passwordResetLink: string };
  magic_link: { magicLink: string; otp: string };
  team_invitation: { teamInvitationLink: string; teamDisplayName: string };
  sign_in_invitation: { signInInvitationLink: string };
  new_device_sign_in: { deviceName: string; placeName: string; signInTime: string };
};

const theme = (colors: {
  page: string;
  card: string;
  text: string;
  muted: string;
}) => `import { Body, Container, Head, Html, Link, Section, Text } from '@react-email/components';

export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <Html>
      <Head />
      <Body style={{ margin: 0, padding: '32px 16px', backgroundColor: '${colors.page}', fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" }}>
        <Container style={{ maxWidth: '520px', backgroundColor: '${colors.card}', color: '${colors.text}', borderRadius: '8px', padding: '32px' }}>
          {children}
        </Container>
        {unsubscribeLink && (
          <Section style={{ maxWidth: '520px', margin: '0 auto', textAlign: 'center' }}>
            <Text style={{ fontSize: '12px', color: '${colors.muted}' }}>
              <Link href={unsubscribeLink} style={{ color: '${colors.muted}', textDecoration: 'underline' }}>Unsubscribe</Link> from emails like this one.
            </Text>
          </Section>
        )}
      </Body>
    </Html>
  );
}
`;

export const builtInThemes: Record<string, { displayName: string; tsxSource: string }> = {
  [lightThemeId]: {
    displayName: 'Default Light',
    tsxSource: theme({ page: '#f4f4f5', card: '#ffffff', text: '#18181b', muted: '#71717a' }),
  },
  [darkThemeId]: { displayName: 'Default Dark', tsxSource: theme({ page: '#09090b', card: '#18181b', text: '#f4f4f5', muted: '#a1a1aa' }) },
};

/** A template with one call to action: a heading, a paragraph, a button, the link written out, a footnote. */
const actionTemplate = (options: {
  subject: string;
  heading: string;
  paragraph: string;
  button: string;
  link: string;
  footnote: string;
  variables: Record<string, string>;
  extra?: string;
}) => `import { Button, Heading, Link, Text } from '@react-email/components';

export const subject = ({ project, variables }) => \`${options.subject}\`;
export const notificationCategory = 'Transactional';
export const variablesSchema = {
  type: 'object',
  required: ${JSON.stringify(Object.keys(options.variables))},
  properties: { ${Object.keys(options.variables)
    .map((name) => `${name}: { type: 'string' }`)
    .join(', ')} },
};
export const previewVariables = ${JSON.stringify(options.variables)};

export function EmailTemplate({ user, project, variables }) {
  return (
    <>
      <Heading as="h1" style={{ fontSize: '22px', fontWeight: 600, margin: '0 0 16px' }}>${options.heading}</Heading>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>${options.paragraph}</Text>${options.extra ?? ''}
      <Button href={variables.${options.link}} style={{ padding: '12px 24px', backgroundColor: '#2563eb', color: '#ffffff', borderRadius: '6px', fontWeight: 600 }}>
        ${options.button}
      </Button>
      <Text style={{ fontSize: '13px' }}>
        Or paste this link into your browser: <Link href={variables.${options.link}}>{variables.${options.link}}</Link>
      </Text>
      <Text style={{ fontSize: '13px', opacity: 0.7 }}>${options.footnote}</Text>
    </>
  );
}
`;

const previewLink = (path: string) => `https://example.com/handler/${path}?code=preview`;

export const builtInTemplates: Record<string, { displayName: string; tsxSource: string }> = {
  [systemTemplateIds.email_verification]: {
    displayName: 'Email Verification',
    tsxSource: actionTemplate({
      subject: 'Verify your email for ${project.display_name}',
      heading: 'Verify your email',
      paragraph:
        'Hi{user.display_name ? ` ${user.display_name}` : ""}, confirm that this address belongs to you to finish setting up your {project.display_name} account.',
      button: 'Verify email',
      link: 'emailVerificationLink',
      footnote: 'If you did not create an account, you can ignore this email.',
      variables: { emailVerificationLink: previewLink('email-verification') },
    }),
  },
  [systemTemplateIds.password_reset]: {
    displayName: 'Password Reset',
    tsxSource: actionTemplate({
      subject: 'Reset your ${project.display_name} password',
      heading: 'Reset your password',
      paragraph: 'Someone asked to reset the password of your {project.display_name} account. Choose a new one here:',
      button: 'Reset password',
      link: 'passwordResetLink',
      footnote: 'If you did not ask for this, you can ignore this email: your password stays as it is.',
      variables: { passwordResetLink: previewLink('password-reset') },
    }),
  },
  [systemTemplateIds.magic_link]: {
    displayName: 'Magic Link / OTP',
    tsxSource: actionTemplate({
      subject: 'Your ${project.display_name} sign-in code is ${variables.otp}',
      heading: 'Sign in to {project.display_name}',
      paragraph: 'Your sign-in code is',
      extra: `
      <Text style={{ fontSize: '32px', fontWeight: 700, letterSpacing: '6px', textAlign: 'center', fontFamily: 'Menlo, Consolas, monospace' }}>{variables.otp}</Text>
      <Text style={{ fontSize: '16px' }}>or click the button:</Text>`,
      button: 'Sign in',
      link: 'magicLink',
      footnote: 'If you did not try to sign in, you can ignore this email.',
      variables: { magicLink: previewLink('magic-link-callback'), otp: '3SLSWZ' },
    }),
  },
  [systemTemplateIds.team_invitation]: {
    displayName: 'Team Invitation',
    tsxSource: actionTemplate({
      subject: 'You are invited to join ${variables.teamDisplayName} on ${project.display_name}',
      heading: 'Join {variables.teamDisplayName}',
      paragraph: 'You have been invited to join the team {variables.teamDisplayName} on {project.display_name}.',
      button: 'Accept the invitation',
      link: 'teamInvitationLink',
      footnote: 'If you do not want to join, you can ignore this email.',
      variables: { teamInvitationLink: previewLink('team-invitation'), teamDisplayName: 'My Team' },
    }),
  },
  [systemTemplateIds.sign_in_invitation]: {
    displayName: 'Sign In Invitation',
    tsxSource: actionTemplate({
      subject: 'You are invited to ${project.display_name}',
      heading: 'You are invited to {project.display_name}',
      paragraph: 'You have been invited to sign in to {project.display_name}.',
      button: 'Sign in',
      link: 'signInInvitationLink',
      footnote: 'If you were not expecting this invitation, you can ignore this email.',
      variables: { signInInvitationLink: previewLink('sign-in') },
    }),
  },
  [systemTemplateIds.new_device_sign_in]: { displayName: 'New Device Sign-In', tsxSource: newDeviceSignInTemplate },
};

/** The template a theme is previewed with (PATCH of a theme renders it). */
export const themePreviewTemplate = `import { Heading, Text } from '@react-email/components';

export function EmailTemplate({ project }) {
  return (
    <>
      <Heading as="h1">Welcome to {project.display_name}</Heading>
      <Text>This is how your emails look in this theme.</Text>
    </>
  );
}
`;

/** The source a new template or draft starts from. */
export const blankTemplate = `import { Heading, Text } from '@react-email/components';

export const subject = 'Hello';
export const notificationCategory = 'Transactional';

export function EmailTemplate({ user, project }) {
  return (
    <>
      <Heading as="h1">Hi{user.display_name ? \` \${user.display_name}\` : ''}!</Heading>
      <Text>A message from {project.display_name}.</Text>
    </>
  );
}
`;
