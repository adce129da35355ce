// Where a process's resident memory is, by mapping (/proc/PID/smaps, Linux): the file-backed part by file (the law's
// LMDB environment, the main one, the node binary, the native libraries) and the anonymous part by kind: the main
// malloc arena ([heap], brk), glibc's per-thread malloc arenas (anonymous maps of HEAP_MAX_SIZE = 64 MiB reserved,
// aligned to 64 MiB: the part read/write is what the arena has grown to, the rest ---p), thread stacks, and every
// other anonymous map (V8's heap pages, ArrayBuffer stores and malloc's own maps above the mmap threshold).
import fs from 'node:fs';

export interface MapSum {
  /** resident KiB */
  rss: number;
  /** maps counted */
  maps: number;
  /** KiB reserved (Size) */
  size: number;
}

export type Smaps = Record<string, MapSum>;

const ARENA = 64 * 1024 * 1024;

interface Mapping { start: number; end: number; perms: string; name: string; rss: number; anon: number; size: number }

export function parseSmaps(text: string): Mapping[] {
  const out: Mapping[] = [];
  let cur: Mapping | null = null;
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      cur = { start: parseInt(head[1]!, 16), end: parseInt(head[2]!, 16), perms: head[3]!, name: head[4]!.trim(), rss: 0, anon: 0, size: 0 };
      out.push(cur);
      continue;
    }
    const kv = /^(Rss|Anonymous|Size):\s+(\d+) kB/.exec(line);
    if (kv && cur) {
      if (kv[1] === 'Rss') cur.rss = Number(kv[2]);
      else if (kv[1] === 'Anonymous') cur.anon = Number(kv[2]);
      else cur.size = Number(kv[2]);
    }
  }
  return out;
}

/** the kind of an anonymous map: a malloc arena is 64 MiB-aligned and, with the ---p rest after it, 64 MiB long */
function anonKind(m: Mapping, next: Mapping | undefined): string {
  if (m.name === '[heap]') return 'anon: malloc main arena ([heap])';
  if (m.name === '[stack]') return 'anon: main stack';
  if (m.name.startsWith('[')) return `anon: ${m.name}`;
  if (m.start % ARENA === 0 && m.perms.startsWith('rw')) {
    const reserved = m.end - m.start + (next && next.start === m.end && next.perms.startsWith('---') && !next.name ? next.end - next.start : 0);
    if (reserved === ARENA) return 'anon: malloc thread arenas (64 MiB each reserved)';
  }
  return 'anon: other (V8 heap pages, array buffers, large mallocs, thread stacks)';
}

/** the kind of a file-backed map, by file: LMDB environments named by their directory */
function fileKind(name: string, lawDir?: string): string {
  if (name.endsWith('/data.mdb')) return lawDir && name.startsWith(lawDir) ? 'file: law LMDB (<data>/law/data.mdb)' : 'file: main LMDB (<data>/data.mdb)';
  if (/\/node$/.test(name) || name.endsWith('/nodejs')) return 'file: node binary';
  if (/\.node$|\.so(\.\d+)*$/.test(name)) return 'file: native libraries (.so, .node)';
  return 'file: other';
}

/** resident memory of pid summed by kind (anonymous pages of a file map, e.g. relocations, count as anon: other) */
export function classify(pid: number | string, lawDir?: string): Smaps {
  const maps = parseSmaps(fs.readFileSync(`/proc/${pid}/smaps`, 'utf8'));
  return classifyMaps(maps, lawDir);
}

export function classifyMaps(maps: Mapping[], lawDir?: string): Smaps {
  const out: Smaps = {};
  const add = (k: string, rss: number, size: number) => {
    const s = (out[k] ??= { rss: 0, maps: 0, size: 0 });
    s.rss += rss; s.maps++; s.size += size;
  };
  maps.forEach((m, i) => {
    const isFile = m.name.startsWith('/');
    if (isFile) {
      add(fileKind(m.name, lawDir), m.rss - m.anon, m.size);
      if (m.anon) add('anon: private copies of file maps', m.anon, 0);
    } else {
      add(anonKind(m, maps[i + 1]), m.rss, m.size);
    }
  });
  return out;
}
