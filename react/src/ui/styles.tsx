import { useEffect } from 'react';

export type Theme = 'light' | 'dark' | 'system';

/**
 * The dark theme's tokens, once for `gh-dark` and once for `gh-system` under a dark system scheme. Every
 * pair of them that meets on screen reaches WCAG AA (4.5:1) for text: the accent is a light blue, so
 * links and focus rings read on the dark surfaces, and text on the accent (primary buttons, the selected
 * tab, the avatar) is dark (white on a mid blue, as before, measured 3.7:1 under axe: issue #29).
 */
const darkTokens = `--gh-bg: #111827; --gh-fg: #f3f4f6; --gh-muted: #9ca3af; --gh-border: #374151; --gh-accent: #60a5fa;
  --gh-accent-fg: #111827; --gh-danger: #f87171; --gh-success: #4ade80; --gh-surface: #1f2937;`;

/**
 * The default look: plain CSS scoped to `.gh` with custom properties, so an app restyles it by
 * overriding `--gh-*` variables. Dark follows the system unless the provider fixes a theme.
 */
const css = `
.gh { --gh-bg: #ffffff; --gh-fg: #111827; --gh-muted: #6b7280; --gh-border: #d1d5db; --gh-accent: #2563eb;
  --gh-accent-fg: #ffffff; --gh-danger: #b91c1c; --gh-success: #15803d; --gh-surface: #f9fafb; --gh-radius: 8px;
  color: var(--gh-fg); font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px; line-height: 1.45; }
.gh-dark .gh, .gh.gh-dark { ${darkTokens} }
@media (prefers-color-scheme: dark) { .gh-system .gh, .gh.gh-system { ${darkTokens} } }
.gh-card { background: var(--gh-bg); border: 1px solid var(--gh-border); border-radius: var(--gh-radius); padding: 24px;
  max-width: 420px; margin: 32px auto; box-shadow: 0 1px 3px rgb(0 0 0 / 0.08); }
.gh-wide { max-width: 760px; }
.gh h1 { font-size: 22px; margin: 0 0 16px; } .gh h2 { font-size: 17px; margin: 0 0 12px; }
.gh form, .gh-stack { display: flex; flex-direction: column; gap: 12px; }
.gh-field { display: flex; flex-direction: column; gap: 4px; } .gh label { font-weight: 500; }
.gh input, .gh select { font: inherit; color: var(--gh-fg); background: var(--gh-bg); border: 1px solid var(--gh-border);
  border-radius: 6px; padding: 8px 10px; }
.gh input:focus-visible, .gh select:focus-visible, .gh button:focus-visible, .gh a:focus-visible { outline: 2px solid var(--gh-accent); outline-offset: 1px; }
.gh input[aria-invalid="true"] { border-color: var(--gh-danger); }
.gh button { font: inherit; cursor: pointer; border-radius: 6px; padding: 8px 14px; border: 1px solid var(--gh-border);
  background: var(--gh-surface); color: var(--gh-fg); }
.gh button.gh-primary { background: var(--gh-accent); border-color: var(--gh-accent); color: var(--gh-accent-fg); }
.gh button.gh-danger { color: var(--gh-danger); border-color: var(--gh-danger); background: transparent; }
.gh button:disabled { opacity: 0.6; cursor: progress; }
.gh a { color: var(--gh-accent); }
.gh-error { color: var(--gh-danger); margin: 0; } .gh-success { color: var(--gh-success); margin: 0; }
.gh-muted { color: var(--gh-muted); font-size: 13px; margin: 0; }
.gh-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
.gh-section { border-top: 1px solid var(--gh-border); padding-top: 16px; margin-top: 16px; }
.gh-list { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: 6px; }
.gh-list li { display: flex; justify-content: space-between; gap: 8px; align-items: center; }
.gh-menu { position: relative; display: inline-block; }
.gh-menu-items { position: absolute; inset-inline-end: 0; top: calc(100% + 4px); min-width: 200px; z-index: 10; background: var(--gh-bg);
  border: 1px solid var(--gh-border); border-radius: var(--gh-radius); padding: 6px; display: flex; flex-direction: column; gap: 4px; }
.gh-menu-items button { text-align: start; border: none; background: transparent; }
.gh-avatar { width: 28px; height: 28px; border-radius: 50%; background: var(--gh-accent); color: var(--gh-accent-fg);
  display: inline-flex; align-items: center; justify-content: center; font-weight: 600; }
.gh-tabs { display: flex; gap: 4px; flex-wrap: wrap; margin-bottom: 12px; }
.gh-tabs button[aria-selected="true"] { background: var(--gh-accent); color: var(--gh-accent-fg); border-color: var(--gh-accent); }
.gh-divider { text-align: center; color: var(--gh-muted); font-size: 13px; }
`;

/** Injects the stylesheet and puts the theme's class on the document (`gh-light`, `gh-dark`, `gh-system`). */
export function GatehouseStyles({ theme }: { theme: Theme }) {
  useEffect(() => {
    const root = document.documentElement.classList;
    root.add(`gh-${theme}`);
    return () => root.remove(`gh-${theme}`);
  }, [theme]);
  return <style data-gatehouse="">{css}</style>;
}
