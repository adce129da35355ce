// Reader worker bootstrap: lets the worker thread load the TypeScript sources (tsx), then runs reader-worker.ts.
import { register } from 'tsx/esm/api';
register();
await import('./reader-worker.ts');
