import type { Language } from '../../../tenancy/project-language.ts';
import type { EmailMessageKey } from './email-catalogues.ts';
import { contentWrapper, jsx, templateLiteral } from './system-templates.ts';

type Part = 'subject' | 'heading' | 'paragraph' | 'device' | 'place' | 'time' | 'ifYou' | 'notYou' | 'footnote';

/**
 * The new-device sign-in email in a language (the `newDeviceSignIn.*` words of `catalogues/<language>.json`):
 * what signed in, from where and when, and what to do when it was not the user. No link and no code: it
 * must carry nothing that lets its reader in (a forwarded or intercepted alert is harmless); the user
 * secures the account from where they sign in.
 */
export function newDeviceSignInTemplateSource(language: Language): string {
  const key = (part: Part) => `newDeviceSignIn.${part}` as EmailMessageKey;
  const text = (part: Part) => jsx(language, key(part));
  const [open, close] = contentWrapper(language);
  return `import { Heading, Section, Text } from '@react-email/components';

export const subject = ({ project }) => \`${templateLiteral(language, key('subject'))}\`;
export const notificationCategory = 'Sign-in alerts';
export const variablesSchema = {
  type: 'object',
  required: ['deviceName', 'placeName', 'signInTime'],
  properties: { deviceName: { type: 'string' }, placeName: { type: 'string' }, signInTime: { type: 'string' } },
};
export const previewVariables = { deviceName: 'Chrome on Windows', placeName: 'London, England, GB', signInTime: '2026-01-31 09:15 UTC' };

export function EmailTemplate({ user, project, variables }) {
  return (
    ${open}
      <Heading as="h1" style={{ fontSize: '22px', fontWeight: 600, margin: '0 0 16px' }}>${text('heading')}</Heading>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>{user.display_name ? <>${jsx(language, 'common.greeting')}</> : <>${jsx(language, 'common.greetingNoName')}</>}</Text>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>${text('paragraph')}</Text>
      <Section style={{ padding: '8px 16px', borderRadius: '6px', border: '1px solid #d4d4d8' }}>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>${text('device')}</Text>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>${text('place')}</Text>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>${text('time')}</Text>
      </Section>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>${text('ifYou')}</Text>
      <Text style={{ fontSize: '16px', lineHeight: '24px', fontWeight: 600 }}>${text('notYou')}</Text>
      <Text style={{ fontSize: '13px', opacity: 0.7 }}>${text('footnote')}</Text>
    ${close}
  );
}
`;
}
