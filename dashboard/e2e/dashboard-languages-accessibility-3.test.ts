import { describe, expect, it } from 'vitest';
import { withDashboardInChromium } from './dashboard-platform.ts';
import { axeFindingsIn, ownerWithEveryPage } from './languages-accessibility-sweep.ts';

/** axe over every dashboard route in 'ja', 'zh-CN', light and dark (four files of this name, two languages each, run in parallel). */
const env = withDashboardInChromium();

describe('the dashboard in every language: accessibility (part 3)', () => {
  it('finds no serious or critical axe violation on any route, light or dark', { timeout: 900_000 }, async () => {
    const owner = await ownerWithEveryPage(env);
    const findings: string[] = [];
    for (const locale of ['ja', 'zh-CN']) findings.push(...(await axeFindingsIn(env, owner, locale)));
    expect(findings).toEqual([]);
  });
});
