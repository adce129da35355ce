// Usage: node bench/request-log-flush.mjs <checkout with dist/>. CPU on the request thread of one 1,000-entry
// shared-mode request-log flush (usage/request-log-pg.ts): the old way (decode, JSON per entry, pg's array literals of
// three arrays) against the new (decode, one JSON text, 100 entries per event-loop turn: the largest piece is how long
// the requests in flight wait at a flush).
import { createRequire } from 'node:module';
const root = process.argv[2];
const { EntrySlab } = await import(root + '/dist/usage/entry-slab.js');
const { prepareValue } = createRequire(root + '/package.json')('pg/lib/utils.js');
const us = (t) => { const c = process.cpuUsage(t); return (c.user + c.system); };
function slab() {
  const s = new EntrySlab();
  for (let i = 0; i < 1000; i++) s.push({ time: Date.now(), method: 'GET', path: '/api/v1/text-to-image/status/t2i_abcdefabcdefabcdef', status: 200, ms: 1.23, requestId: 'f1e2d3c4-aaaa-bbbb-cccc-0000000' + String(i).padStart(5, '0') });
  return s;
}
function oldWay(s) {
  const t = process.cpuUsage();
  const keys = [], times = [], entries = [];
  for (const e of EntrySlab.decode(s.bytes())) { keys.push('key_x'); times.push(e.time); entries.push(JSON.stringify(e)); }
  prepareValue(keys); prepareValue(times); prepareValue(entries);
  return us(t);
}
function newWay(s) {
  let t = process.cpuUsage(); let max = 0; let all = 0;
  const rows = []; const key = JSON.stringify('key_x');
  const entries = EntrySlab.decode(s.bytes());
  for (let i = 0; i < entries.length; i++) {
    if (i > 0 && i % 100 === 0) { const c = us(t); max = Math.max(max, c); all += c; t = process.cpuUsage(); }
    const e = entries[i]; rows.push(`[${key},${e.time},${JSON.stringify(e)}]`);
  }
  const text = `[${rows.join(',')}]`; prepareValue(text);
  const c = us(t); max = Math.max(max, c); all += c;
  return [all, max];
}
const o = [], n = [], m = [];
for (let r = 0; r < 30; r++) { o.push(oldWay(slab())); const [a, b] = newWay(slab()); n.push(a); m.push(b); }
const med = (a) => a.slice(10).sort((x, y) => x - y)[Math.floor((a.length - 10) / 2)];
console.log(`flush of 1,000 entries, CPU µs (median of 20 after 10 warm-up): old ${med(o)}, new ${med(n)} in all, largest piece ${med(m)}; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
