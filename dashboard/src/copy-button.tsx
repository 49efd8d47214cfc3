import { useState } from 'react';
import { useDashboardTranslation } from './i18n/dashboard-i18n.ts';

/**
 * Copies a value to the clipboard and says so; where the browser refuses (no permission, a page served over
 * plain http from another host) it says to select the value and copy it by hand.
 */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useDashboardTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'refused'>('idle');
  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('refused');
    }
  }
  return (
    <span className="dash-row">
      <button type="button" aria-label={label} onClick={() => void copy()}>
        {t('copy.copy')}
      </button>
      <span role="status" className={state === 'refused' ? 'dash-error' : 'dash-muted'}>
        {state === 'copied' ? t('copy.copied') : state === 'refused' ? t('copy.refused') : ''}
      </span>
    </span>
  );
}
