import { benchStartupMemory, startupMemoryRows } from './startup-memory.ts';
const figures = await benchStartupMemory(process.env.ADMIN_URL as string);
console.log(JSON.stringify(figures));
console.log(startupMemoryRows(figures).join('\n'));
