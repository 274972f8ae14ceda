/**
 * The folder holding package.json, locales/ and contracts/: found by walking up from this module,
 * so it is the same from the sources (src/config/), the bundle (dist/chunks/) and the Docker image.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}: cannot find the app's files`);
  }
}

export const APP_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
