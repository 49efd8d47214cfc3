import { defineConfig } from 'vitepress';
import { sidebar } from './sidebar.ts';

/**
 * The documentation site, served by `pnpm start` at `/docs` (built to `docs/.vitepress/dist`).
 * Plain `.html` URLs (no clean URLs) so the platform serves the files as they are; search is
 * VitePress's own local index (MiniSearch), shipped with the site, so it works offline.
 */
export default defineConfig({
  title: 'Gatehouse',
  description: 'Self-hostable authentication and user management, wire-compatible with Stack Auth',
  base: '/docs/',
  lang: 'en',
  srcExclude: ['samples/**', 'scripts/**', 'test/**', 'README.md'],
  // The API reference lives on the server itself; the link checker in docs/test checks links within the site.
  ignoreDeadLinks: [/^\/api\//],
  lastUpdated: false,
  // Shiki's high-contrast GitHub themes: the default ones' token colours fail WCAG AA contrast on the code background.
  markdown: { theme: { light: 'github-light-high-contrast', dark: 'github-dark-high-contrast' } },
  themeConfig: {
    nav: [
      { text: 'Quick start', link: '/guide/quick-start' },
      { text: 'Guides', link: '/guide/react' },
      { text: 'Reference', link: '/reference/configuration' },
      { text: 'Architecture', link: '/architecture/' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
});
