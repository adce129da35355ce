// The memory breakdown of bench/law-server-rss.ts --breakdown: smaps mappings summed by kind (the law's LMDB map, the
// main one, binaries, malloc's main and per-thread arenas, other anonymous maps). (bench/lib/node-report.ts, the
// isolates' heaps, is not tested here: under tap the report of a spawned process came without its worker, while the
// same code outside tap gave both; not found why in the time.)
import t from 'tap';
import fs from 'node:fs';
import { classify, classifyMaps, parseSmaps } from '../../bench/lib/smaps.js';

const map = (start: number, end: number, perms: string, name: string, rss: number, anon = 0) =>
  `${start.toString(16)}-${end.toString(16)} ${perms} 00000000 fe:00 1 ${name}\nSize: ${(end - start) / 1024} kB\nRss: ${rss} kB\nAnonymous: ${anon} kB\n`;
const MiB = 1024 * 1024;

t.test('smaps by kind: LMDB maps by directory, binaries, arenas (64 MiB-aligned, 64 MiB with their ---p rest), other anon', async (t) => {
  const text = [
    map(0x400000, 0x600000, 'r-xp', '/usr/bin/node', 1500),
    map(0x10000000, 0x10100000, 'r--s', '/data/law/data.mdb', 800),
    map(0x10100000, 0x10200000, 'r--s', '/data/law/data.mdb', 200),
    map(0x10200000, 0x10300000, 'r--s', '/data/data.mdb', 40),
    map(0x20000000, 0x20100000, 'r-xp', '/lib/libc.so.6', 300, 12),
    map(0x30000000, 0x30400000, 'rw-p', '[heap]', 4000, 4000),
    map(64 * MiB * 5, 64 * MiB * 5 + 8 * MiB, 'rw-p', '', 6000, 6000),
    map(64 * MiB * 5 + 8 * MiB, 64 * MiB * 6, '---p', '', 0),
    map(64 * MiB * 7 + 4096, 64 * MiB * 7 + 4096 + 2 * MiB, 'rw-p', '', 1024, 1024),
  ].join('');
  const maps = parseSmaps(text);
  t.equal(maps.length, 9);
  const k = classifyMaps(maps, '/data/law/');
  t.same(k['file: law LMDB (<data>/law/data.mdb)'], { rss: 1000, maps: 2, size: 2048 });
  t.equal(k['file: main LMDB (<data>/data.mdb)']!.rss, 40);
  t.equal(k['file: node binary']!.rss, 1500);
  t.equal(k['file: native libraries (.so, .node)']!.rss, 288, 'the file part of a library map');
  t.equal(k['anon: private copies of file maps']!.rss, 12);
  t.equal(k['anon: malloc main arena ([heap])']!.rss, 4000);
  t.same(k['anon: malloc thread arenas (64 MiB each reserved)'], { rss: 6000, maps: 1, size: 8192 });
  t.equal(k['anon: other (V8 heap pages, array buffers, large mallocs, thread stacks)']!.rss, 1024 + 0, 'the unaligned map and the ---p rest');
});

t.test('smaps of this process: the kinds add up to its resident memory', { skip: process.platform !== 'linux' && 'Linux /proc only' }, async (t) => {
  const rollup = Number(/^Rss:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/smaps_rollup', 'utf8'))![1]);
  const sum = Object.values(classify(process.pid)).reduce((a, s) => a + s.rss, 0);
  t.ok(Math.abs(sum - rollup) / rollup < 0.05, `classified ${sum} kB against smaps_rollup ${rollup} kB`);
  t.ok(classify(process.pid)['file: node binary']!.rss > 0, 'the node binary is mapped');
});
