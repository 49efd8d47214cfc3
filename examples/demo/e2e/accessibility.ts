import { join, resolve } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshots } from './chromium.ts';

const axeScript = join(resolve(import.meta.dirname, '../../..'), 'node_modules/axe-core/axe.min.js');

/**
 * axe-core over the page as it is: its serious and critical violations (WCAG 2.x A/AA and best
 * practices), each with the elements it names and, for contrast, the colours axe measured.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axeScript });
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document): Promise<unknown> } }).axe.run(document),
  )) as AxeResults;
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .map((node) => {
            const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
            const colours = data?.contrastRatio ? ` [${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}]` : '';
            return `${node.target.join(' ')}${colours}`;
          })
          .join(', ')}`,
    );
}

/** No serious or critical axe violation on the page as it is. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), `accessibility of ${label}`).toEqual([]);
}

/**
 * A sweep of pages judged by axe in light and in dark (the handler pages follow the system's scheme
 * unless an app fixes a theme): which pages it saw, and every finding, each named by page, state and scheme.
 */
export function accessibilitySweep(testName: string) {
  const shot = screenshots(testName);
  const visited = new Set<string>();
  const findings: string[] = [];
  return {
    visited,
    findings,
    /** Judges the page as it is now, in light and in dark, and leaves it in light. */
    async judge(page: Page, name: string, state: string): Promise<void> {
      visited.add(name);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const violation of await seriousViolations(page)) findings.push(`${name} ${state} (${scheme}): ${violation}`);
        await shot(page, `${name}-${state}-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
  };
}
