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
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything index.html needs in one chunk: left alone, the bundler cuts out of it every module a
          // lazy page shares (an error class, a hook), a dozen files of a few hundred bytes each, and each
          // file is one more request and compresses worse (issue #20: 4 KB gzip of the sign-in page).
          // The pages stay split: each loads its own chunk and what it alone needs.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
});
