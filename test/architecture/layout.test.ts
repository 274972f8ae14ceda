/**
 * The house rule on size: no source file over 300 lines, so each one is read in one sitting and a
 * file that grows past it is split where its parts meet (the README's "How it is built"). Test files
 * are not held to it yet: about twenty are longer (the fakes of the Bot API and the Graph API most).
 *
 * And on breadth: no folder under src/ holds more than 15 files directly, so a feature is found in
 * one sub-folder named for it rather than among dozens side by side (src/sell was split this way).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 300;
const MAX_FILES = 15;

/**
 * Folders over MAX_FILES today, with their count when the rule came in. Each is to be split into
 * sub-folders named for its parts, as src/sell was (issue #34); the count may only go down, and an
 * entry goes once its folder is under the limit.
 */
const WIDE_FOLDERS: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|tsx|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

function folders(dir: string): string[] {
  const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return [dir, ...subs.flatMap((e) => folders(join(dir, e.name)))];
}

const filesIn = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile()).length;

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

  it(`no folder under src/ holds more than ${MAX_FILES} files, but the listed ones, which only shrink`, () => {
    const counts = new Map(folders(join(ROOT, 'src')).map((dir) => [relative(ROOT, dir), filesIn(dir)]));
    const over = [...counts]
      .filter(([dir, n]) => n > (WIDE_FOLDERS[dir] ?? MAX_FILES))
      .map(([dir, n]) => `${dir} (${n})`);
    expect(over).toEqual([]);
    const split = Object.keys(WIDE_FOLDERS).filter((dir) => (counts.get(dir) ?? 0) <= MAX_FILES);
    expect(split, 'these are split now: take them off WIDE_FOLDERS').toEqual([]);
  });
});
