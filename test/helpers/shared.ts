// Where the shared test data lives: `../shared` beside the repository (faces, law corpus). Never copied into the repo.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED = path.resolve(REPO, '..', 'shared');
export const shared = (...parts: string[]) => path.join(SHARED, ...parts);
