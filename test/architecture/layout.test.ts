/**
 * The house rule on size: no source file over 300 lines, so each one is read in one sitting and a
 * file that grows past it is split where its parts meet (the README's "How it is built"). Test files
 * are not held to it yet: about twenty are longer (the fakes of the Bot API and the Graph API most).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|tsx|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

const lines = (path: string) => readFileSync(path, 'utf8').replace(/\n$/, '').split('\n').length;

describe('layout', () => {
  for (const folder of ['src'])
    it(`no file under ${folder}/ is over ${MAX_LINES} lines`, () => {
      const over = sourceFiles(join(ROOT, folder))
        .map((path) => ({ file: relative(ROOT, path), lines: lines(path) }))
        .filter((f) => f.lines > MAX_LINES)
        .map((f) => `${f.file} (${f.lines})`);
      expect(over).toEqual([]);
    });
});
