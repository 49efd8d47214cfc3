import { type Language, languageOwnNames as ownNames, languages } from '@gatehouse/react';
import { useContext } from 'react';
import { LanguageContext, useDashboardTranslation } from './dashboard-i18n.ts';

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
