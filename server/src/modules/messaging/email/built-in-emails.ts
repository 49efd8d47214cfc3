import { defaultEmailThemeId } from '../../../tenancy/project-config.ts';
import type { Language } from '../../../tenancy/project-language.ts';
import { newDeviceSignInTemplateSource } from './new-device-sign-in-template.ts';
import { type CatalogueEmailKind, systemTemplateSource } from './system-templates.ts';

/**
 * The themes and templates every project starts with, as TSX sources under fixed ids (Stack Auth's).
 * A project's config (`emails.themes`, `emails.templates`) replaces one by using its id; deleting
 * the project's version brings the built-in one back. Every email the platform sends itself goes
 * through the template of its kind here (or the project's edit of it) and the selected theme.
 */

export const lightThemeId = defaultEmailThemeId;
export const darkThemeId = 'a0172b5d-cff0-463b-83bb-85124697373a';

/** Every email the platform sends itself: the action emails (system-templates.ts) and the sign-in alert, all from the email catalogues. */
export type SystemEmailKind = CatalogueEmailKind | 'new_device_sign_in';

const sources = new Map<string, string>();

/** The built-in source of a system email in the recipient's language, made once per kind and language. */
export function builtInSystemTemplateSource(kind: SystemEmailKind, language: Language): string {
  const key = `${kind} ${language}`;
  let source = sources.get(key);
  if (source === undefined) {
    source = kind === 'new_device_sign_in' ? newDeviceSignInTemplateSource(language) : systemTemplateSource(kind, language);
    sources.set(key, source);
  }
  return source;
}

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

/**
 * A built-in theme: its own words (the unsubscribe footer) are the recipient's, from the `footer` prop
 * (theme-words.ts), and `<html>` carries the recipient's `lang` and `dir`.
 */
const theme = (colors: {
  page: string;
  card: string;
  text: string;
  muted: string;
}) => `import { Body, Container, Head, Html, Link, Section, Text } from '@react-email/components';

export function EmailTheme({ children, unsubscribeLink, lang, dir, footer }) {
  return (
    <Html lang={lang} dir={dir}>
      <Head />
      <Body style={{ margin: 0, padding: '32px 16px', backgroundColor: '${colors.page}', fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" }}>
        <Container style={{ maxWidth: '520px', backgroundColor: '${colors.card}', color: '${colors.text}', borderRadius: '8px', padding: '32px' }}>
          {children}
        </Container>
        {unsubscribeLink && (
          <Section style={{ maxWidth: '520px', margin: '0 auto', textAlign: 'center' }}>
            <Text style={{ fontSize: '12px', color: '${colors.muted}' }}>
              {footer.beforeUnsubscribe}
              <Link href={unsubscribeLink} style={{ color: '${colors.muted}', textDecoration: 'underline' }}>{footer.unsubscribe}</Link>
              {footer.afterUnsubscribe}
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

/** The built-in templates in English, the words of `catalogues/en.json` (system-templates.ts makes each language's). */
export const builtInTemplates: Record<string, { displayName: string; tsxSource: string }> = {
  [systemTemplateIds.email_verification]: {
    displayName: 'Email Verification',
    tsxSource: systemTemplateSource('email_verification', 'en'),
  },
  [systemTemplateIds.password_reset]: { displayName: 'Password Reset', tsxSource: systemTemplateSource('password_reset', 'en') },
  [systemTemplateIds.magic_link]: { displayName: 'Magic Link / OTP', tsxSource: systemTemplateSource('magic_link', 'en') },
  [systemTemplateIds.team_invitation]: { displayName: 'Team Invitation', tsxSource: systemTemplateSource('team_invitation', 'en') },
  [systemTemplateIds.sign_in_invitation]: {
    displayName: 'Sign In Invitation',
    tsxSource: systemTemplateSource('sign_in_invitation', 'en'),
  },
  [systemTemplateIds.new_device_sign_in]: { displayName: 'New Device Sign-In', tsxSource: newDeviceSignInTemplateSource('en') },
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
