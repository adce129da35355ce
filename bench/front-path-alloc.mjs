// Bytes the front path allocates per request (in process, no sockets: bench/lib/front-fakes.mjs), by function: V8's
// sampling heap profiler with the objects the young- and old-generation collectors already freed counted too (what
// a poll allocates and drops is what fills the young generation and sets how often a scavenge pauses the loop).
// Usage: node bench/front-path-alloc.mjs <checkout (built dist/)> <health|status> [requests=50000]
import inspector from 'node:inspector/promises';
import { drive, setup } from './lib/front-fakes.mjs';
const root = process.argv[2]; const which = process.argv[3] ?? 'status'; const n = Number(process.argv[4] ?? 50000);
const side = await setup(root, which); const { c } = side;
await drive(c.h, c.url, c.headers, c.params, 20000);
const s = new inspector.Session(); s.connect();
await s.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
await drive(c.h, c.url, c.headers, c.params, n);
const { profile } = await s.post('HeapProfiler.stopSampling');
const self = new Map(); let total = 0;
const walk = (node) => {
  const f = node.callFrame; const k = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
  self.set(k, (self.get(k) ?? 0) + node.selfSize); total += node.selfSize;
  for (const ch of node.children) walk(ch);
};
walk(profile.head);
console.log(`${which} ${root}: ${(total / n).toFixed(0)} bytes sampled per request (${n} requests; the driver's own stand-ins included)`);
for (const [k, b] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(String(Math.round(b / n)).padStart(6), k);
await side.server.close(); process.exit(0);
