// Worker bootstrap: lets worker threads load the TypeScript sources (tsx), then hands over to worker.ts.
import { register } from 'tsx/esm/api';
register();
const mod = await import('./worker.ts');
export default mod.default;
