// `npm run bench -- <name> [args]`: runs bench/<name>.ts (each benchmark's module runs itself on import).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const [name, ...rest] = process.argv.slice(2);
const available = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('lib')).map((f) => f.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`Usage: npm run bench -- <${available.join('|')}> [args]`);
  process.exit(2);
}
process.argv = [process.argv[0]!, path.join(dir, `${name}.ts`), ...rest];
await import(pathToFileURL(path.join(dir, `${name}.ts`)).href);
