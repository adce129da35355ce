// Layers point one way (docs/architecture.md): fails when an import of src/ breaks the layer rule and is not in the
// allow-list below, when an allow-list entry is no longer needed, and on any import cycle in src/.
import t from 'tap';
import { cycles, importGraph } from './graph.js';

/** area of a file: its first folder under src/, or the file name without .ts for top-level files */
const area = (f: string): string => (f.includes('/') ? f.split('/')[0]! : f.replace(/\.ts$/, ''));

// higher may import lower; 'services' is the wiring type (the bag of shared parts), between api and the middle
const RANK: Record<string, number> = {
  main: 5, cli: 5,
  server: 4,
  api: 3, services: 2.5,
  jobs: 2, pool: 2, providers: 2, law: 2, enhance: 2, print: 2, catalog: 2, auth: 2, usage: 2, studio: 2,
  vision: 2, tasks: 2, store: 2, console: 2, shared: 2, ekyc: 2,
  domain: 1, config: 1, clock: 1,
};
// extra rules inside the middle layer: pure areas and one-way pairs
const FORBIDDEN: Record<string, string[]> = {
  tasks: ['store', 'jobs', 'enhance', 'shared'],
  vision: ['store', 'jobs', 'tasks', 'shared'],
};

/** today's known exceptions: `from -> to` (a file, or an area/ prefix), each with its reason */
const ALLOWED: Record<string, string> = {
  'api/ -> server/types.ts': 'defineRoute/Ctx, the route contract, still lives in the HTTP server',
  'api/ -> server/validate.ts': 'zod helpers shared by routes still live in the HTTP server',
  'auth/bootstrap.ts -> services.ts': 'takes the whole Services bag instead of the parts it needs',
  'enhance/pipeline.ts -> services.ts': 'takes the whole Services bag instead of the parts it needs',
  'enhance/ekyc-pipeline.ts -> services.ts': 'takes the whole Services bag instead of the parts it needs',
  'law/service.ts -> services.ts': 'takes the whole Services bag instead of the parts it needs',
  'providers/ai/service.ts -> services.ts': 'takes the whole Services bag instead of the parts it needs',
};

function allowed(from: string, to: string): string | undefined {
  for (const key of Object.keys(ALLOWED)) {
    const [f, d] = key.split(' -> ') as [string, string];
    const hit = (pattern: string, file: string): boolean => (pattern.endsWith('/') ? file.startsWith(pattern) : file === pattern);
    if (hit(f, from) && hit(d, to)) return key;
  }
  return undefined;
}

function breaks(from: string, to: string): boolean {
  const a = area(from);
  const b = area(to);
  if (a === b) return false;
  const ra = RANK[a];
  const rb = RANK[b];
  if (ra === undefined || rb === undefined) return true; // a new area must be placed in RANK
  if (rb > ra) return true;
  if (rb === ra && ra !== 2 && ra !== 5) return true; // only the middle layer and the entry points talk sideways
  return (FORBIDDEN[a] ?? []).includes(b);
}

const g = importGraph();

t.test('every import follows the layer rule or is a listed exception', async (t) => {
  const violations: string[] = [];
  const used = new Set<string>();
  for (const [from, deps] of g) {
    for (const to of deps) {
      if (!breaks(from, to)) continue;
      const key = allowed(from, to);
      if (key) used.add(key);
      else violations.push(`${from} -> ${to}`);
    }
  }
  t.same(violations, [], 'imports breaking the layers (fix them, or add them to ALLOWED with a reason)');
  t.same(Object.keys(ALLOWED).filter((k) => !used.has(k)), [], 'allow-list entries no longer needed (remove them)');
  t.equal(Object.keys(ALLOWED).length, 7, 'allow-list size');
});

t.test('the rule itself catches a bad import', async (t) => {
  t.equal(breaks('tasks/chroma-key.ts', 'server/app.ts'), true, 'task → server');
  t.equal(breaks('tasks/chroma-key.ts', 'enhance/pipeline.ts'), true, 'task → enhance');
  t.equal(breaks('vision/faces.ts', 'tasks/lib/x.ts'), true, 'vision → tasks');
  t.equal(breaks('jobs/engine.ts', 'api/image.ts'), true, 'jobs → api');
  t.equal(breaks('jobs/engine.ts', 'domain/errors.ts'), false, 'jobs → domain');
  t.equal(breaks('server/app.ts', 'api/image.ts'), false, 'server → api');
  t.equal(breaks('tasks/chroma-key.ts', 'vision/faces.ts'), false, 'task → vision');
});

t.test('no import cycles in src/', async (t) => {
  // every strongly connected component of more than one file is listed, so the failure names the files
  t.same(cycles(g).map((c) => c.join(' ↔ ')), [], 'import cycles (type-only imports count too: break them with a narrow interface below both)');
});

t.test('the cycle finder sees a cycle', async (t) => {
  const g2 = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
  t.same(cycles(g2), [['a.ts', 'b.ts', 'c.ts']]);
  t.same(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
});
