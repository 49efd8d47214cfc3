import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** `pnpm dev` (hot reload) talks to a platform started with `pnpm start` on PLATFORM_URL. */
const platform = process.env.PLATFORM_URL ?? 'http://localhost:8102';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': platform, '/gatehouse-config.js': platform } },
  // The manifest maps each source to its chunk and their imports: the bench reads what a page loads from it.
  build: { outDir: 'dist', emptyOutDir: true, manifest: true },
});
