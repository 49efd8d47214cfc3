#!/usr/bin/env node
// `npx @gatehouse/server`: the platform from its published package, as `pnpm start` runs it from a clone,
// on PGlite in ./data unless DATABASE_URL says otherwise. The package ships the compiled server and the
// built dashboard; the example app and the documentation site stay in the repository.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dashboard = fileURLToPath(new URL('../dist/web/dashboard', import.meta.url));
// A newcomer's start logs keys, codes and email links (no mail server needed); production says NODE_ENV=production.
if (process.env.DEVELOPMENT_MODE === undefined) process.env.DEVELOPMENT_MODE = process.env.NODE_ENV === 'production' ? 'false' : 'true';
if (process.env.DASHBOARD_DIR === undefined) process.env.DASHBOARD_DIR = existsSync(dashboard) ? dashboard : '';
if (process.env.EXAMPLE_APP_DIR === undefined) process.env.EXAMPLE_APP_DIR = '';
if (process.env.DOCS_DIR === undefined) process.env.DOCS_DIR = '';
await import('../dist/src/main.js');
