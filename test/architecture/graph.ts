// The import graph of src/: regexes over import / export-from lines (type-only imports included), resolved to files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const SRC = resolve(import.meta.dirname, '../../src');

/** every .ts/.mts source file under dir (declaration files left out) */
export function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const DYNAMIC = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** file (relative to src/, e.g. 'server/app.ts') → the src files it imports */
export function importGraph(root: string = SRC): Map<string, string[]> {
  const files = walk(root);
  const g = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const deps = new Set<string>();
    for (const re of [IMPORT, DYNAMIC]) {
      for (const m of text.matchAll(re)) {
        const target = resolve(dirname(f), m[1]!).replace(/\.js$/, '.ts');
        deps.add(relative(root, target));
      }
    }
    g.set(relative(root, f), [...deps].filter((d) => d.endsWith('.ts')).sort());
  }
  return g;
}

/** strongly connected components with more than one file (Tarjan): each is an import cycle */
export function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!g.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return out;
}
