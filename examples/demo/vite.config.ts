import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `pnpm dev` (hot reload) talks to a platform started with `pnpm start` on PLATFORM_URL. */
const platform = process.env.PLATFORM_URL ?? 'http://localhost:8102';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': platform, '/gatehouse-config.js': platform } },
  // The manifest maps each source to its chunk and their imports: the bench reads what a page loads from it.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // No preload helper, polyfill or table of every lazy chunk's imports in the first chunk (0.9 KB gzip of the
    // sign-in page, issue #37): a lazy page's few shared chunks load after it, one round trip later.
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything index.html needs in one chunk: left alone, the bundler cuts out of it every module a
          // lazy page shares (an error class, a hook), a dozen files of a few hundred bytes each, and each
          // file is one more request and compresses worse (issue #20: 4 KB gzip of the sign-in page).
          // The pages stay split: each loads its own chunk and what it alone needs, except the sign-in page, the
          // first page of most visitors: it and everything it imports are one chunk (issue #37: its eleven
          // files compressed one by one weighed 1.9 KB gzip more). The sign-up page shares that chunk's forms.
          // The tests and the bench find it by this name (manifest `name: 'sign-in-page'`).
          groups: [
            { name: 'app', tags: ['$initial'] },
            { name: 'sign-in-page', test: /[\\/]handler[\\/]pages[\\/]sign-in-page\.tsx$/ },
          ],
        },
      },
    },
  },
});
