// Where the shared test data lives: `../shared` beside the repository (faces, law corpus). Never copied into the repo.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED = path.resolve(REPO, '..', 'shared');
export const shared = (...parts: string[]) => path.join(SHARED, ...parts);

/** tap options that skip a test, with a message saying what is missing, when a path under ../shared is absent. */
export function needsShared(...parts: string[]): { skip: string | false } {
  const p = shared(...parts);
  return { skip: fs.existsSync(p) ? false : `needs ${path.relative(REPO, p)} (the shared test data beside the repository), which is absent` };
}
