/**
 * The built-in emails: each kind is a function of its variables to a subject, an HTML body and a
 * plain-text body. The HTML is deliberately plain (inline styles, layout tables, no external
 * assets) because mail clients strip stylesheets and block remote images.
 */

/** The variables each kind of email is rendered from. */
export type EmailVariables = {
  email_verification: { projectName: string; link: string };
  password_reset: { projectName: string; link: string };
  team_invitation: { projectName: string; link: string; teamName: string };
  sign_in_code: { projectName: string; link: string; otp: string };
};

export type EmailKind = keyof EmailVariables;

export type RenderedEmail = { subject: string; html: string; text: string };

export const emailKinds = [
  'email_verification',
  'password_reset',
  'sign_in_code',
  'team_invitation',
] as const satisfies readonly EmailKind[];

const templates: { [K in EmailKind]: (variables: EmailVariables[K]) => RenderedEmail } = {
  email_verification: ({ projectName, link }) => ({
    subject: `Verify your email for ${headerText(projectName)}`,
    html: layout({
      title: 'Verify your email',
      body: [
        paragraph(`Confirm that this address belongs to you to finish setting up your ${escapeHtml(projectName)} account.`),
        button(link, 'Verify email'),
        linkFallback(link),
        footnote('If you did not create an account, you can ignore this email.'),
      ],
    }),
    text: lines(
      `Verify your email for ${projectName}`,
      '',
      `Confirm that this address belongs to you to finish setting up your ${projectName} account:`,
      link,
      '',
      'If you did not create an account, you can ignore this email.',
    ),
  }),

  password_reset: ({ projectName, link }) => ({
    subject: `Reset your ${headerText(projectName)} password`,
    html: layout({
      title: 'Reset your password',
      body: [
        paragraph(`Someone asked to reset the password of your ${escapeHtml(projectName)} account. Choose a new one here:`),
        button(link, 'Reset password'),
        linkFallback(link),
        footnote('If you did not ask for this, you can ignore this email: your password stays as it is.'),
      ],
    }),
    text: lines(
      `Reset your ${projectName} password`,
      '',
      `Someone asked to reset the password of your ${projectName} account. Choose a new one here:`,
      link,
      '',
      'If you did not ask for this, you can ignore this email: your password stays as it is.',
    ),
  }),

  team_invitation: ({ projectName, link, teamName }) => ({
    subject: `You are invited to join ${headerText(teamName)} on ${headerText(projectName)}`,
    html: layout({
      title: `Join ${escapeHtml(teamName)}`,
      body: [
        paragraph(`You have been invited to join the team ${escapeHtml(teamName)} on ${escapeHtml(projectName)}.`),
        button(link, 'Accept the invitation'),
        linkFallback(link),
        footnote('If you do not want to join, you can ignore this email.'),
      ],
    }),
    text: lines(
      `Join ${teamName}`,
      '',
      `You have been invited to join the team ${teamName} on ${projectName}. Accept the invitation here:`,
      link,
      '',
      'If you do not want to join, you can ignore this email.',
    ),
  }),

  sign_in_code: ({ projectName, link, otp }) => ({
    subject: `Your ${headerText(projectName)} sign-in code is ${headerText(otp)}`,
    html: layout({
      title: `Sign in to ${escapeHtml(projectName)}`,
      body: [
        paragraph('Your sign-in code is'),
        codeBlock(otp),
        paragraph('or click the link:'),
        button(link, 'Sign in'),
        linkFallback(link),
        footnote('If you did not try to sign in, you can ignore this email.'),
      ],
    }),
    text: lines(
      `Sign in to ${projectName}`,
      '',
      `Your sign-in code is ${otp}, or click the link:`,
      link,
      '',
      'If you did not try to sign in, you can ignore this email.',
    ),
  }),
};

export function renderEmail<K extends EmailKind>(kind: K, variables: EmailVariables[K]): RenderedEmail {
  return templates[kind](variables);
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => htmlEntities[character as keyof typeof htmlEntities]);
}

const htmlEntities = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Subjects are headers, not HTML: only line breaks matter (they could start a new header). */
const headerText = (value: string): string => value.replace(/[\r\n]+/g, ' ');

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const fontStack = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

// The helpers below take already-escaped HTML, except where they take a raw variable (link, otp).
function layout({ title, body }: { title: string; body: string[] }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f5;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f5;">
<tr><td align="center" style="padding:32px 16px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:520px;background-color:#ffffff;border-radius:8px;">
<tr><td style="padding:32px;font-family:${fontStack};color:#18181b;font-size:16px;line-height:1.5;">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;font-weight:600;color:#18181b;">${title}</h1>
${body.join('\n')}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

const paragraph = (html: string): string => `<p style="margin:0 0 16px;">${html}</p>`;

const footnote = (html: string): string => `<p style="margin:24px 0 0;font-size:13px;color:#52525b;">${html}</p>`;

const button = (link: string, label: string): string =>
  `<p style="margin:0 0 16px;"><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 24px;background-color:#18181b;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600;">${escapeHtml(label)}</a></p>`;

const linkFallback = (link: string): string =>
  `<p style="margin:0 0 16px;font-size:13px;color:#52525b;">Or paste this link into your browser:<br><a href="${escapeHtml(link)}" style="color:#1d4ed8;word-break:break-all;">${escapeHtml(link)}</a></p>`;

const codeBlock = (otp: string): string =>
  `<p style="margin:0 0 16px;padding:16px;background-color:#f4f4f5;border-radius:6px;text-align:center;font-family:'SFMono-Regular',Menlo,Consolas,monospace;font-size:32px;font-weight:700;letter-spacing:6px;color:#18181b;">${escapeHtml(otp)}</p>`;
