// Law worker bootstrap: lets the worker thread load the TypeScript sources (tsx), then hands over to search-worker.ts.
import { register } from 'tsx/esm/api';
register();
const mod = await import('./search-worker.ts');
export default mod.default;
