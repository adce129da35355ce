// The server code a front-end benchmark measures: the compiled dist/ (what `sejong serve` runs in production) when
// `npm run build` is newer than every source file, else the TypeScript sources through tsx — whose keep-names helper
// wraps every closure and adds several µs per request, so figures from the sources overstate the cost.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const stamp = path.join(root, 'dist', '.stamp');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** true when dist/ is built and not older than src/ */
export const usesBuilt: boolean = fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= newest(path.join(root, 'src'));

/** import src/<rel>.ts, or dist/<rel>.js when the build is fresh; `rel` without extension, e.g. 'server/start' */
export async function serverModule<T>(rel: string): Promise<T> {
  const file = usesBuilt ? path.join(root, 'dist', `${rel}.js`) : path.join(root, 'src', `${rel}.ts`);
  return (await import(pathToFileURL(file).href)) as T;
}

/** what the figures were measured on, for the report line */
export const codeLabel = (): string => (usesBuilt ? 'built dist/ (npm run build)' : 'sources through tsx (dist/ missing or stale: run npm run build)');
