import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../../server/src/config/settings.ts';
import { generatedPages, readSpecErrors, renderConfigurationPage, renderErrorsPage } from '../scripts/reference-pages.ts';

/**
 * The configuration reference and the error catalogue are generated: the committed pages must be what
 * the settings list and the spec render today, so changing a default or adding an error without
 * `pnpm docs:generate` fails here.
 */
describe('the generated reference pages', () => {
  for (const page of generatedPages) {
    it(`${page.path.split('/docs/')[1]} is up to date (run pnpm docs:generate)`, () => {
      expect(readFileSync(page.path, 'utf8')).toBe(page.render());
    });
  }

  it('changes when a default changes, and names every setting, the rate limits among them', () => {
    const page = renderConfigurationPage();
    for (const setting of settings) expect(page).toContain(`| \`${setting.name}\` |`);
    expect(page).toContain('| `RATE_LIMITS` | `on` |');
    expect(page).toContain('| `RATE_LIMIT_SIGN_IN` | `30,10,60` |');
    const changed = settings.map((setting) => (setting.name === 'PORT' ? { ...setting, default: '9000' } : setting));
    expect(renderConfigurationPage(changed)).not.toBe(page);
  });

  it('lists every error of the spec, and changes when one is added', () => {
    const errors = readSpecErrors();
    const page = renderErrorsPage(errors);
    for (const error of errors) expect(page).toContain(`| \`${error['x-error-code']}\``);
    expect(renderErrorsPage([...errors, { 'x-error-code': 'NEW_ERROR', 'x-error-status': 400 }])).not.toBe(page);
  });
});
