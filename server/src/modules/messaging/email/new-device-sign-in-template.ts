/**
 * The new-device sign-in email: what signed in, from where and when, and what to do when it was not
 * the user. No link and no code: it must carry nothing that lets its reader in (a forwarded or
 * intercepted alert is harmless); the user secures the account from where they sign in.
 */
export const newDeviceSignInTemplate = `import { Heading, Section, Text } from '@react-email/components';

export const subject = ({ project }) => \`New sign-in to your \${project.display_name} account\`;
export const notificationCategory = 'Sign-in alerts';
export const variablesSchema = {
  type: 'object',
  required: ['deviceName', 'placeName', 'signInTime'],
  properties: { deviceName: { type: 'string' }, placeName: { type: 'string' }, signInTime: { type: 'string' } },
};
export const previewVariables = { deviceName: 'Chrome on Windows', placeName: 'London, England, GB', signInTime: '2026-01-31 09:15 UTC' };

export function EmailTemplate({ user, project, variables }) {
  return (
    <>
      <Heading as="h1" style={{ fontSize: '22px', fontWeight: 600, margin: '0 0 16px' }}>New sign-in to {project.display_name}</Heading>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>
        Hi{user.display_name ? \` \${user.display_name}\` : ''}, your {project.display_name} account was just signed in to from a device we have not seen before.
      </Text>
      <Section style={{ padding: '8px 16px', borderRadius: '6px', border: '1px solid #d4d4d8' }}>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>Device: {variables.deviceName}</Text>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>Place: {variables.placeName}</Text>
        <Text style={{ fontSize: '15px', margin: '8px 0' }}>Time: {variables.signInTime}</Text>
      </Section>
      <Text style={{ fontSize: '16px', lineHeight: '24px' }}>If this was you, there is nothing to do.</Text>
      <Text style={{ fontSize: '16px', lineHeight: '24px', fontWeight: 600 }}>
        Not you? Secure your account: change your password and sign out of your other sessions in your account settings.
      </Text>
      <Text style={{ fontSize: '13px', opacity: 0.7 }}>You can turn these emails off in your account settings (Sign-in alerts).</Text>
    </>
  );
}
`;
