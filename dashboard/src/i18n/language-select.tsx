import { type Language, languages } from '@gatehouse/react';
import { useContext } from 'react';
import { LanguageContext, useDashboardTranslation } from './dashboard-i18n.ts';

/** Each language named in itself, so an owner finds theirs whatever the dashboard speaks now. */
const ownNames: Record<(typeof languages)[number], string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ja: '日本語',
  'zh-CN': '简体中文',
  ko: '한국어',
  ar: 'العربية',
};

export const languageOwnNames: readonly string[] = Object.values(ownNames);

/** The header's language menu: the choice is kept in this browser (localStorage) and applies at once. */
export function LanguageSelect() {
  const { language, setLanguage } = useContext(LanguageContext);
  const { t } = useDashboardTranslation();
  return (
    <div className="dash-switcher">
      <label htmlFor="language-select">{t('shell.language')}</label>
      <select id="language-select" value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {/* The pseudo-locale is never offered; while it is active it stays selectable as itself. */}
        {language === 'en-XA' ? <option value="en-XA">en-XA</option> : null}
        {languages.map((tag) => (
          <option key={tag} value={tag} lang={tag}>
            {ownNames[tag]}
          </option>
        ))}
      </select>
    </div>
  );
}
