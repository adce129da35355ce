#!/usr/bin/env node
// sejong command. Runs the built JavaScript in dist/ (`npm run build`) when it is there and not older than the
// sources; otherwise the TypeScript sources through tsx (development, tests), saying so once on stderr.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'main.js');
// written by `npm run build` after tsc succeeds (tsc --incremental leaves unchanged outputs' times alone)
const stamp = path.join(root, 'dist', '.stamp');

/** newest modification time under dir (the sources are ~200 files: a few ms) */
function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

function useBuilt() {
  if (!fs.existsSync(built) || !fs.existsSync(stamp)) return false;
  if (!fs.existsSync(path.join(root, 'src'))) return true;
  return fs.statSync(stamp).mtimeMs >= newest(path.join(root, 'src'));
}

let main;
if (useBuilt()) {
  ({ main } = await import(pathToFileURL(built).href));
} else {
  if (fs.existsSync(built)) process.stderr.write('sejong: dist/ is older than src/; running the sources through tsx (run `npm run build`)\n');
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(pathToFileURL(path.join(root, 'src', 'main.ts')).href));
}
const code = await main(process.argv.slice(2));
if (typeof code === 'number') process.exitCode = code;
