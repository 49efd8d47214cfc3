import { languageOwnNames } from './language-formats.ts';
import { type Language, languages } from './languages.ts';

/** The `<option>`s of a language `<select>`, each language named in itself (the handler's and the dashboard's pickers). */
export function LanguageOptions({ current }: { current: Language }) {
  return (
    <>
      {/* The pseudo-locale is never offered; while it is active it stays selectable as itself. */}
      {current === 'en-XA' ? <option value="en-XA">en-XA</option> : null}
      {languages.map((tag) => (
        <option key={tag} value={tag} lang={tag}>
          {languageOwnNames[tag]}
        </option>
      ))}
    </>
  );
}
