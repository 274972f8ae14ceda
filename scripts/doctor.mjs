// `npm run doctor`: the built doctor (dist/, as in the Docker image, which has no sources) when it
// is at least as new as every source file; otherwise the TypeScript sources through tsx.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'doctor', 'main.js');
const sources = join(root, 'src');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (existsSync(built) && (!existsSync(sources) || statSync(built).mtimeMs >= newestSource(sources))) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(sources, 'doctor', 'main.ts')).href);
}
