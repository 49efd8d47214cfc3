import type { Language } from '../../../tenancy/project-language.ts';
import { type EmailMessageKey, type MessagePart, messageParts } from './email-catalogues.ts';
import { directionOf } from './theme-words.ts';

export type CatalogueEmailKind = 'email_verification' | 'password_reset' | 'magic_link' | 'team_invitation' | 'sign_in_invitation';

/** What each placeholder of the email catalogues stands for in a template. */
const placeholderExpressions: Record<string, string> = {
  project: 'project.display_name',
  name: 'user.display_name',
  team: 'variables.teamDisplayName',
  otp: 'variables.otp',
  device: 'variables.deviceName',
  place: 'variables.placeName',
  time: 'variables.signInTime',
};

function expressionOf(language: Language, key: EmailMessageKey, name: string): string {
  const expression = placeholderExpressions[name];
  if (!expression) throw new Error(`catalogues/${language}.json: "${key}" has an unknown placeholder {${name}}`);
  return expression;
}

/**
 * A message as JSX children. Text is written as it is (so the dashboard's editor finds it as an editable
 * text); text holding `{ } < > &` is written as a string expression, which JSX takes literally.
 */
export function jsx(language: Language, key: EmailMessageKey): string {
  return messageParts(language, key)
    .map((part: MessagePart) =>
      typeof part === 'string'
        ? /[{}<>&]/.test(part)
          ? `{${JSON.stringify(part)}}`
          : part
        : `{${expressionOf(language, key, part.placeholder)}}`,
    )
    .join('');
}

/** A message as the body of a JS template literal (the subject). */
export function templateLiteral(language: Language, key: EmailMessageKey): string {
  return messageParts(language, key)
    .map((part) =>
      typeof part === 'string'
        ? part.replace(/[\\`]|\$\{/g, (match) => `\\${match}`)
        : `\${${expressionOf(language, key, part.placeholder)}}`,
    )
    .join('');
}

type SystemTemplate = {
  /** The catalogue's section of this email (`emailVerification.subject`, ...). */
  section: 'emailVerification' | 'passwordReset' | 'signInCode' | 'teamInvitation' | 'signInInvitation';
  /** The variable holding the call to action's link. */
  link: string;
  previewVariables: Record<string, string>;
  greeting?: boolean;
  code?: boolean;
};

const previewLink = (path: string) => `https://example.com/handler/${path}?code=preview`;

const systemTemplates: Record<CatalogueEmailKind, SystemTemplate> = {
  email_verification: {
    section: 'emailVerification',
    link: 'emailVerificationLink',
    previewVariables: { emailVerificationLink: previewLink('email-verification') },
    greeting: true,
  },
  password_reset: {
    section: 'passwordReset',
    link: 'passwordResetLink',
    previewVariables: { passwordResetLink: previewLink('password-reset') },
  },
  magic_link: {
    section: 'signInCode',
    link: 'magicLink',
    previewVariables: { magicLink: previewLink('magic-link-callback'), otp: '3SLSWZ' },
    code: true,
  },
  team_invitation: {
    section: 'teamInvitation',
    link: 'teamInvitationLink',
    previewVariables: { teamInvitationLink: previewLink('team-invitation'), teamDisplayName: 'My Team' },
  },
  sign_in_invitation: {
    section: 'signInInvitation',
    link: 'signInInvitationLink',
    previewVariables: { signInInvitationLink: previewLink('sign-in') },
  },
};

/** English content as it is; another language's marked with its `lang` (and `dir` when written right to left). */
export function contentWrapper(language: Language): [open: string, close: string] {
  return language === 'en' ? ['<>', '</>'] : [`<div lang="${language}"${directionOf(language) === 'rtl' ? ' dir="rtl"' : ''}>`, '</div>'];
}

/**
 * The TSX source of a built-in email in a language: a heading, a paragraph, a button, the link written
 * out and a footnote, in the words of `catalogues/<language>.json`. English's is the template the project
 * sees and may edit (`builtInTemplates`); another language's content is marked with its `lang` (and `dir`
 * for a language written right to left).
 */
export function systemTemplateSource(kind: CatalogueEmailKind, language: Language): string {
  const { section, link, previewVariables, greeting, code } = systemTemplates[kind];
  const text = (name: 'heading' | 'paragraph' | 'button' | 'footnote' | 'orButton') =>
    jsx(language, `${section}.${name}` as EmailMessageKey);
  const [open, close] = contentWrapper(language);
  const greetingLine = greeting
    ? `
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>{user.display_name ? <>${jsx(language, 'common.greeting')}</> : <>${jsx(language, 'common.greetingNoName')}</>}</Text>`
    : '';
  const codeLines = code
    ? `
      <Text style={{ fontSize: '32px', fontWeight: 700, letterSpacing: '6px', textAlign: 'center', fontFamily: 'Menlo, Consolas, monospace' }}>{variables.otp}</Text>
      <Text style={{ fontSize: '16px' }}>${text('orButton')}</Text>`
    : '';
  return `import { Button, Heading, Link, Text } from '@react-email/components';

export const subject = ({ user, project, variables }) => \`${templateLiteral(language, `${section}.subject` as EmailMessageKey)}\`;
export const notificationCategory = 'Transactional';
export const variablesSchema = {
  type: 'object',
  required: ${JSON.stringify(Object.keys(previewVariables))},
  properties: { ${Object.keys(previewVariables)
    .map((name) => `${name}: { type: 'string' }`)
    .join(', ')} },
};
export const previewVariables = ${JSON.stringify(previewVariables)};

export function EmailTemplate({ user, project, variables }) {
  return (
    ${open}
      <Heading as="h1" style={{ fontSize: '22px', fontWeight: 600, margin: '0 0 16px' }}>${text('heading')}</Heading>${greetingLine}
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>${text('paragraph')}</Text>${codeLines}
      <Button href={variables.${link}} style={{ padding: '12px 24px', backgroundColor: '#2563eb', color: '#ffffff', borderRadius: '6px', fontWeight: 600 }}>
        ${text('button')}
      </Button>
      <Text style={{ fontSize: '13px' }}>
        ${jsx(language, 'common.pasteLink')} <Link href={variables.${link}}>{variables.${link}}</Link>
      </Text>
      <Text style={{ fontSize: '13px', opacity: 0.7 }}>${text('footnote')}</Text>
    ${close}
  );
}
`;
}
