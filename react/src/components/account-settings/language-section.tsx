import { useContext, useId, useTransition } from 'react';
import type { CurrentUser } from '../../generated/hooks.schemas.ts';
import { useUpdateUser } from '../../hooks/use-update-user.ts';
import { createLocalisation, LocalisationContext, useTranslation } from '../../i18n/i18n-context.ts';
import { LanguageOptions } from '../../i18n/language-options.tsx';
import type { Language } from '../../i18n/languages.ts';
import { RequestError } from '../../ui/form.tsx';

/**
 * The user's language: saved as the user's `language` (the built-in emails speak it, and the provider
 * starts in it on the next visit unless the app fixes `lang`), and the UI switches to it at once.
 */
export function LanguageSection({ user }: { user: CurrentUser }) {
  const { t, language } = useTranslation();
  const localisation = useContext(LocalisationContext);
  const update = useUpdateUser();
  const [switching, startSwitching] = useTransition();
  const selectId = useId();
  const hintId = useId();
  const pick = (picked: Language) =>
    update.mutate(
      { data: { language: picked === 'en-XA' ? null : picked } },
      {
        onSuccess: () => {
          const choose = localisation?.choose;
          if (!choose) return;
          // Made here, not in render: its messages start loading now, and the transition keeps the old words
          // on the page until they are in.
          const next = createLocalisation(picked, choose);
          startSwitching(() => choose(next));
        },
      },
    );
  const shown = (user.language as Language | null | undefined) ?? language;
  return (
    <section aria-labelledby="gh-language">
      <h2 id="gh-language">{t('language.title')}</h2>
      <div className="gh-field">
        <label htmlFor={selectId}>{t('language.label')}</label>
        <select
          id={selectId}
          value={shown}
          aria-describedby={hintId}
          aria-busy={update.isPending || switching}
          disabled={update.isPending}
          onChange={(event) => pick(event.target.value as Language)}
        >
          <LanguageOptions current={shown} />
        </select>
        <span id={hintId} className="gh-muted">
          {t('language.hint')}
        </span>
      </div>
      <RequestError error={update.error} />
    </section>
  );
}
