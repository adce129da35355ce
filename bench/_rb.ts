import { Store } from '../src/store/env.js';
import { openLaw } from '../src/law/open.js';
const store = new Store('/tmp/speed17/rbx'); const law = openLaw(store); law.reload();
const c0 = process.cpuUsage(), t0 = performance.now(); const r = await law.rebuildIndex(); const u = process.cpuUsage(c0);
console.log('/work/wt/speed17', JSON.stringify(r), 'wall', ((performance.now() - t0) / 1000).toFixed(1), 's, CPU', ((u.user + u.system) / 1e6).toFixed(1), 's, load', (await import('node:os')).loadavg()[0].toFixed(1));
await store.close();
