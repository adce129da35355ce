// The front path's JavaScript (bench/front-path.ts: sejong's uWS handlers driven by in-process stand-ins, no sockets)
// as an A/B in ONE process: the built dist/ of each checkout is loaded side by side (two servers, each on its own
// data dir) and rounds alternate between them (ABBA order), so both see the same machine load; CPU µs per request
// (process.cpuUsage) per round, median and min per checkout. Each checkout needs a fresh `npm run build`.
// Usage: node bench/front-path-ab.mjs <health|status> <rounds> <requests per round> <checkout A> <checkout B> …
import fs from 'node:fs'; import os from 'node:os'; import path from 'node:path';
import { drive, setup } from './lib/front-fakes.mjs';
const which = process.argv[2]; const rounds = Number(process.argv[3]); const per = Number(process.argv[4]); const roots = process.argv.slice(5);
const sides = [];
for (const r of roots) sides.push(await setup(r, which));
const us = roots.map(() => []);
for (let i = 0; i < rounds; i++) for (let k = 0; k < sides.length; k++) {
  const { c } = sides[(i % 2 === 0) ? k : sides.length - 1 - k] ; const kk = (i % 2 === 0) ? k : sides.length - 1 - k;
  const c0 = process.cpuUsage(); const st = await drive(c.h, c.url, c.headers, c.params, per); const cu = process.cpuUsage(c0);
  if (st.size !== 1 || !String([...st.keys()][0]).startsWith('200')) throw new Error('bad answers ' + [...st]);
  us[kk].push((cu.user + cu.system) / per);
}
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
roots.forEach((r, k) => console.log(`${which} ${path.basename(r)}: median ${med(us[k]).toFixed(2)} µs/req, min ${Math.min(...us[k]).toFixed(2)} (${rounds} rounds of ${per}) load ${os.loadavg()[0].toFixed(1)}`));
for (const s of sides) { await s.server.close(); fs.rmSync(s.dataDir, { recursive: true, force: true }); }
