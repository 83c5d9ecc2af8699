import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file's location (server/src). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
