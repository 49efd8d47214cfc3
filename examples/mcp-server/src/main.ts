import { startMcpExample } from './mcp-server.ts';

/** `pnpm --filter @gatehouse/example-mcp-server start`: reads where the Gatehouse project is, and serves `/mcp`. */
const platform = (process.env.GATEHOUSE_URL ?? 'http://localhost:8102').replace(/\/+$/, '');
const projectId = process.env.GATEHOUSE_PROJECT_ID;
if (!projectId) {
  console.error('Set GATEHOUSE_PROJECT_ID (the project whose users may use this server; `pnpm start` prints it).');
  process.exit(1);
}
const port = Number(process.env.PORT ?? 8787);
const example = await startMcpExample({
  issuer: `${platform}/api/v1/projects/${projectId}/oauth`,
  port,
  host: process.env.HOST ?? '127.0.0.1',
  publicUrl: process.env.PUBLIC_URL,
});
console.log(`MCP server at ${example.url.href} (tokens from ${platform}, project ${projectId})`);
