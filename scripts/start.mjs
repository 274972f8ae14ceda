// `npm start`: runs the built app (dist/, from `npm run build`) when it is at least as new as every
// source file; otherwise runs the TypeScript sources through tsx (development), so `npm start`
// works straight after `npm install` and never runs a stale build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const sources = join(root, 'src');
// The Docker image has dist/ and no sources: the build is all there is.
if (existsSync(built) && (!existsSync(sources) || statSync(built).mtimeMs >= newestSource(sources))) {
  await import(pathToFileURL(built).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
}
