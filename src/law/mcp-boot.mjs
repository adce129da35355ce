// MCP law worker bootstrap: lets the worker thread load the TypeScript sources (tsx), then runs mcp-worker.ts.
import { register } from 'tsx/esm/api';
register();
await import('./mcp-worker.ts');
