import { type Language, LanguageOptions, languageOwnNames as ownNames } from '@gatehouse/react';
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
        <LanguageOptions current={language} />
      </select>
    </div>
  );
}
