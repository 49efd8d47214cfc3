import { afterAll, describe, expect, it } from 'vitest';
import { builtInThemes, darkThemeId, lightThemeId } from '../built-in-emails.ts';
import { emailCatalogues } from '../email-catalogues.ts';
import { EmailRenderer } from './email-renderer.ts';

/**
 * The themes in the sandbox speak the recipient's language: the built-in themes' footer comes from the
 * email catalogues and their `<html>` carries `lang` (and `dir="rtl"` for Arabic); a project's own theme
 * gets the same `lang`, `dir` and `footer` props, and one that does not use them renders as before.
 */
const renderer = new EmailRenderer();
afterAll(() => renderer.close());

const template = `import { Text } from '@react-email/components';
export function EmailTemplate({ user }) { return <Text>Body for {user.display_name}</Text>; }`;
const link = 'https://example.com/api/v1/emails/unsubscribe-link?code=c0de';
const props = { user: { display_name: 'Ada' }, project: { display_name: 'P' } };
const renderTheme = (themeSource: string, language?: 'ar' | 'de' | 'en', unsubscribeLink: string | null = link) =>
  renderer.render({
    templateSource: template,
    themeSource,
    props,
    ...(unsubscribeLink ? { unsubscribeLink } : {}),
    ...(language ? { language } : {}),
  });

describe('the email themes in the recipient language', () => {
  it('renders the built-in light theme in Arabic: lang="ar", dir="rtl" and the Arabic footer around the link', async () => {
    const arabic = await renderTheme(builtInThemes[lightThemeId]!.tsxSource, 'ar');
    expect(arabic.html).toMatch(/<html[^>]* lang="ar"/);
    expect(arabic.html).toMatch(/<html[^>]* dir="rtl"/);
    const words = emailCatalogues.ar;
    const [before, after] = words['theme.unsubscribeSentence'].split('{unsubscribe}') as [string, string];
    expect(arabic.html).toContain(`>${words['theme.unsubscribe']}</a>${after}`);
    expect(arabic.text).toContain(words['theme.unsubscribe']);
    expect(before).toBe('');
    expect(arabic.html).not.toContain('Unsubscribe');
    expect(arabic.html).toContain(`href="${link}"`);
  });

  it('renders the dark theme in German (ltr) and in English when no language is given, as before', async () => {
    const german = await renderTheme(builtInThemes[darkThemeId]!.tsxSource, 'de');
    expect(german.html).toMatch(/<html[^>]* lang="de"/);
    expect(german.html).toMatch(/<html[^>]* dir="ltr"/);
    expect(german.html).toContain(`>Abmelden</a>, um keine E-Mails wie diese mehr zu erhalten.`);
    const english = await renderTheme(builtInThemes[darkThemeId]!.tsxSource);
    expect(english.html).toMatch(/<html[^>]* lang="en"/);
    expect(english.html).toContain('>Unsubscribe</a> from emails like this one.');
    // No link (a transactional email): no footer, whatever the language.
    const noFooter = await renderTheme(builtInThemes[lightThemeId]!.tsxSource, 'ar', null);
    expect(noFooter.html).not.toContain(emailCatalogues.ar['theme.unsubscribe']);
  });

  it("gives a project's own theme the footer words, and leaves one that does not use them unchanged", async () => {
    const usesFooter = `import { Html, Link } from '@react-email/components';
export function EmailTheme({ children, unsubscribeLink, lang, dir, footer }) {
  return <Html lang={lang} dir={dir}>{children}<p>{footer.beforeUnsubscribe}<Link href={unsubscribeLink}>{footer.unsubscribe}</Link>{footer.afterUnsubscribe}</p></Html>;
}`;
    const withFooter = await renderTheme(usesFooter, 'de');
    expect(withFooter.html).toContain('<p><a href="https://example.com/api/v1/emails/unsubscribe-link?code=c0de"');
    expect(withFooter.html).toContain('>Abmelden</a>, um keine E-Mails wie diese mehr zu erhalten.</p>');

    const stackStyle = `import { Html, Link } from '@react-email/components';
export function EmailTheme({ children, unsubscribeLink }) {
  return <Html><div>{children}</div><Link href={unsubscribeLink}>Stop these</Link></Html>;
}`;
    const [asGerman, asEnglish] = [await renderTheme(stackStyle, 'de'), await renderTheme(stackStyle)];
    expect(asGerman.html).toBe(asEnglish.html);
    expect(asGerman.html).toContain('>Stop these</a>');
    expect(asGerman.html).not.toContain('Abmelden');
  });
});
