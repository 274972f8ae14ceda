// Copies the non-TypeScript files the sources read at run time (next to the module that reads them)
// into dist/, after `tsc -p tsconfig.build.json`.
import { cpSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
for (const file of walk(src).filter((f) => f.endsWith('.json'))) {
  cpSync(file, join(root, 'dist', relative(src, file)));
}
