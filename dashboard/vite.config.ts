import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Served by the platform at /dashboard; `pnpm dev` (hot reload) talks to a platform on PLATFORM_URL. */
const platform = process.env.PLATFORM_URL ?? 'http://localhost:8102';

export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  server: { proxy: { '/api': platform, '/dashboard/gatehouse-config.js': platform } },
  build: { outDir: 'dist', emptyOutDir: true },
});
