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

/**
 * Whole-file guard for a test file whose module top reads ../shared (a server started on the law sample, photos read
 * at load): when the path is absent the file reports one skip with needsShared's message (plan 0) and ends here,
 * before the reads that would crash it. Call it (await) before those reads; tap is loaded only then (benches import
 * this module too).
 */
export async function skipFileWithoutShared(...parts: string[]): Promise<void> {
  const { skip } = needsShared(...parts);
  if (!skip) return;
  const { default: t } = await import('tap');
  t.plan(0, skip);
  process.exit(0);
}
